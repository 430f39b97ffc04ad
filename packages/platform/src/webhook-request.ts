/** Reading a webhook request's body (raw, or left by a body parser) and writing a plain-text reply. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlatformError } from './errors.js';

/** Mounted behind a body parser, express leaves `req.body` set; a raw string or Buffer is still usable. */
export type RequestWithBody = IncomingMessage & { body?: unknown };

export class BodyTooLarge extends Error {}

export function readBody(req: RequestWithBody, maxBytes: number): Promise<string> {
  if (typeof req.body === 'string') return Promise.resolve(req.body);
  if (Buffer.isBuffer(req.body)) return Promise.resolve(req.body.toString('utf8'));
  if (req.readableEnded) {
    return Promise.reject(
      new PlatformError(
        'invalid_argument',
        'the request body was already consumed by a body parser: mount the webhook handler before express.json(), or use express.text({ type: "*/*" })',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer | string) => {
      if (tooLarge) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > maxBytes) {
        // Keep reading and discarding, so the 413 can still be written on this connection.
        tooLarge = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(buffer);
    });
    req.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

export function reply(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}
