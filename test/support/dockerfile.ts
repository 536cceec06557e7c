import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the last stage of the repository's Dockerfile sets for the process it starts. */
export interface ImageProcess {
  /** ENV of the stage, ARG defaults substituted (`${REVISION}`), in order. */
  env: Record<string, string>;
  workdir: string;
  user: string | undefined;
  /** ENTRYPOINT followed by CMD (exec form). */
  command: string[];
  /** ENTRYPOINT alone: what a Kubernetes container's `args` follow (they replace CMD). */
  entrypoint: string[];
  exposed: number[];
  volumes: string[];
}

export const dockerfilePath = join(__dirname, '..', '..', 'Dockerfile');

/**
 * Reads the Dockerfile's last stage: enough of the format for what the image starts (instructions with line
 * continuations, ENV key=value pairs, exec-form ENTRYPOINT/CMD, ARG defaults), refusing what it does not read
 * (a shell-form ENTRYPOINT), so the test runs exactly what a container would.
 */
export function readImageProcess(text = readFileSync(dockerfilePath, 'utf8')): ImageProcess {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: keyword!.toUpperCase(), rest: rest! };
    });
  const args: Record<string, string> = {};
  let stage: typeof instructions = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stage = [];
    else stage.push(instruction);
    if (instruction.keyword === 'ARG') {
      const [name, value = ''] = instruction.rest.split('=', 2);
      args[name!] ??= value;
    }
  }
  const substitute = (value: string) => value.replace(/\$\{(\w+)\}/g, (_, name: string) => args[name] ?? '');
  const image: ImageProcess = {
    env: {},
    workdir: '/',
    user: undefined,
    command: [],
    entrypoint: [],
    exposed: [],
    volumes: [],
  };
  let entrypoint: string[] = [];
  let cmd: string[] = [];
  for (const { keyword, rest } of stage) {
    if (keyword === 'ENV')
      for (const [, key, value] of rest.matchAll(/(\w+)=("[^"]*"|\S*)/g))
        image.env[key!] = substitute(value!.replace(/^"(.*)"$/, '$1'));
    if (keyword === 'WORKDIR') image.workdir = rest;
    if (keyword === 'USER') image.user = rest;
    if (keyword === 'EXPOSE') image.exposed.push(...rest.split(/\s+/).map(Number));
    if (keyword === 'VOLUME') image.volumes.push(...(JSON.parse(rest) as string[]));
    if (keyword === 'ENTRYPOINT') entrypoint = execForm(keyword, rest);
    if (keyword === 'CMD') cmd = execForm(keyword, rest);
  }
  image.command = [...entrypoint, ...cmd];
  image.entrypoint = entrypoint;
  return image;
}

function execForm(keyword: string, rest: string): string[] {
  if (!rest.startsWith('[')) throw new Error(`${keyword} is not in exec form: ${rest}`);
  return JSON.parse(rest) as string[];
}
