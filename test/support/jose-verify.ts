import { spawn } from 'node:child_process';

/**
 * Verifies a receipt as an auditor would, with no code of ours: the `jose` library, in a Node process of its
 * own (jose is an ES module), against the JWKS served at `jwksUrl`. Answers the payload and protected header,
 * or the library's error code.
 */
export function verifyWithJose(
  receipt: string,
  jwksUrl: string,
): Promise<{ ok: true; payload: Record<string, unknown>; header: Record<string, unknown> } | { ok: false; code: string }> {
  const script = `
    const { compactVerify, createRemoteJWKSet } = require('jose');
    const [receipt, url] = process.argv.slice(1);
    compactVerify(receipt, createRemoteJWKSet(new URL(url)), { algorithms: ['EdDSA'] }).then(
      ({ payload, protectedHeader }) => console.log(JSON.stringify({ ok: true, payload: JSON.parse(new TextDecoder().decode(payload)), header: protectedHeader })),
      (error) => console.log(JSON.stringify({ ok: false, code: error.code ?? error.message })),
    );`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, receipt, jwksUrl], { cwd: process.cwd() });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`jose verification printed ${stdout} ${stderr}`));
      }
    });
  });
}
