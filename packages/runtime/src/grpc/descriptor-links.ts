import {
  FileDescriptorProto,
  type IDescriptorProto,
  type IFieldDescriptorProto,
  type IFileDescriptorProto,
} from 'protobufjs/ext/descriptor';

/**
 * proto-loader's file descriptors declare no imports and keep type references relative
 * (grpc/grpc-node#2595). Reflection clients such as grpcurl link each file only against the files it
 * declares, so `describe` and calls fail on any cross-package type (every Eligo response holds a
 * eligo.common.v1.BuildInfo). This pass resolves each reference, writes it fully qualified and lists the
 * file that defines it as a dependency, as protoc would have.
 */
export function linkFileDescriptors(encoded: readonly Uint8Array[]): Uint8Array[] {
  const files = new Map<string, IFileDescriptorProto>();
  for (const bytes of encoded) {
    const file = FileDescriptorProto.decode(bytes) as IFileDescriptorProto;
    if (file.name && !files.has(file.name)) files.set(file.name, file);
  }

  for (const file of files.values()) walkMessages(file.messageType ?? [], '', (_fqn, m) => nameMapEntries(m));

  const definedIn = new Map<string, string>();
  for (const [name, file] of files) {
    const prefix = file.package ? `${file.package}.` : '';
    for (const e of file.enumType ?? []) definedIn.set(prefix + e.name, name);
    walkMessages(file.messageType ?? [], prefix, (fqn, message) => {
      definedIn.set(fqn, name);
      for (const e of message.enumType ?? []) definedIn.set(`${fqn}.${e.name}`, name);
    });
  }

  const resolve = (ref: string, scope: string): string | undefined => {
    if (ref.startsWith('.')) return definedIn.has(ref.slice(1)) ? ref.slice(1) : undefined;
    // Protobuf scoping: innermost enclosing scope first, then outwards to the root.
    for (let s = scope; ; s = s.slice(0, Math.max(0, s.lastIndexOf('.')))) {
      const candidate = s ? `${s}.${ref}` : ref;
      if (definedIn.has(candidate)) return candidate;
      if (!s) return undefined;
    }
  };

  return [...files].map(([name, file]) => {
    const deps = new Set<string>();
    // Assigns only references that exist: writing back an unset field would encode it as present and empty.
    const link = <T extends object, K extends keyof T & string>(target: T, key: K, scope: string): void => {
      const ref = target[key];
      if (typeof ref !== 'string' || ref === '') return;
      const fqn = resolve(ref, scope);
      if (fqn === undefined) return;
      const owner = definedIn.get(fqn)!;
      if (owner !== name) deps.add(owner);
      target[key] = `.${fqn}` as T[K];
    };
    const pkg = file.package ?? '';
    const linkFields = (fields: IFieldDescriptorProto[] | undefined, scope: string): void => {
      for (const f of fields ?? []) {
        link(f, 'typeName', scope);
        link(f, 'extendee', scope);
      }
    };
    linkFields(file.extension, pkg);
    walkMessages(file.messageType ?? [], pkg ? `${pkg}.` : '', (fqn, message) => {
      linkFields(message.field, fqn);
      linkFields(message.extension, fqn);
    });
    for (const service of file.service ?? []) {
      for (const method of service.method ?? []) {
        link(method, 'inputType', pkg);
        link(method, 'outputType', pkg);
      }
    }
    file.dependency = [...deps].sort();
    return FileDescriptorProto.encode(file).finish();
  });
}

/**
 * protobufjs names a map field's entry type after the field ("Statuses") where protoc and every strict
 * linker expect "StatusesEntry" (Go rejects the file otherwise).
 */
function nameMapEntries(message: IDescriptorProto): void {
  for (const field of message.field ?? []) {
    const entry = message.nestedType?.find((n) => n.name === field.typeName && n.options?.mapEntry);
    if (!entry || !field.name) continue;
    const name = mapEntryName(field.name);
    entry.name = name;
    field.typeName = name;
  }
}

/** protoc's rule: "metadata_values" -> "MetadataValuesEntry". */
export function mapEntryName(fieldName: string): string {
  let out = '';
  let upper = true;
  for (const c of fieldName) {
    if (c === '_') upper = true;
    else {
      out += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return `${out}Entry`;
}

function walkMessages(
  messages: IDescriptorProto[],
  prefix: string,
  visit: (fqn: string, message: IDescriptorProto) => void,
): void {
  for (const message of messages) {
    const fqn = prefix + message.name;
    visit(fqn, message);
    walkMessages(message.nestedType ?? [], `${fqn}.`, visit);
  }
}
