import { createConnection } from 'node:net';
import { startSmtpCapture } from './smtp-capture';

/** A minimal SMTP client conversation, so the capture is tested without the library under test elsewhere. */
async function sendRaw(url: string, lines: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = createConnection({ host: hostname, port: Number(port) });
  let transcript = '';
  socket.on('data', (d: Buffer) => (transcript += d.toString()));
  const until = (code: string, count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if ((transcript.match(new RegExp(`^${code} `, 'gm')) ?? []).length >= count) resolve();
        else setTimeout(check, 10);
      };
      socket.once('error', reject);
      check();
    });
  await until('220', 1);
  for (const line of lines) socket.write(`${line}\r\n`);
  await until('221', 1);
  socket.destroy();
  return transcript;
}

it('keeps every mail it accepts, with its envelope and raw message', async () => {
  const smtp = await startSmtpCapture();
  try {
    expect(smtp.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const transcript = await sendRaw(smtp.url, [
      'EHLO test',
      'MAIL FROM:<eligo@example.test>',
      'RCPT TO:<jane@example.test>',
      'DATA',
      'Subject: hello\r\n\r\nthe link\r\n.',
      'QUIT',
    ]);
    expect(transcript).toMatch(/^250 .*(queued|OK|Accepted)/im);
    const mail = await smtp.waitForMail((m) => m.to.includes('jane@example.test'), 5_000);
    expect(mail.from).toBe('eligo@example.test');
    expect(mail.raw).toContain('Subject: hello');
    expect(mail.raw).toContain('the link');
    expect(smtp.mails()).toHaveLength(1);
  } finally {
    await smtp.stop();
  }
});
