import type { NextFunction, Request, Response } from 'express';
import { RpcCode, refuse } from '../http/refuse.js';
import { type LogLine, logLine } from '../observe/log.js';

/** The app's last handler: failures reading a body become refusals (http/refuse.ts) with a clear line. */

interface HttpError {
  type?: string;
  status?: number;
  message: string;
}
function isHttpError(error: unknown): error is HttpError {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string';
}

/** Express's final error handler: what went wrong reading a body, as a status and a clear line. */
export function errorHandler(maxBodyBytes: number, log: LogLine) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const type = isHttpError(error) ? error.type : undefined;
    if (type === 'entity.too.large') {
      refuse(res, 413, `Payload Too Large: the request body is over ${maxBodyBytes} bytes (SVC_DOCS_MAX_BODY_BYTES).`);
    } else if (type === 'entity.parse.failed') {
      refuse(res, 400, 'Parse error: the request body is not valid JSON.', RpcCode.ParseError);
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      refuse(res, 415, `Unsupported Media Type: ${isHttpError(error) ? error.message : 'unsupported encoding'}`);
    } else if (type === 'request.aborted') {
      res.end();
    } else if (isHttpError(error) && error.status !== undefined && error.status >= 400 && error.status < 500) {
      // The client's fault, found while reading the body: a gzip body that does not inflate, a
      // body shorter than its Content-Length. Not a server error, and not worth an error log line.
      refuse(
        res,
        error.status,
        `Bad Request: the request body could not be read (${error.message}). Send JSON, uncompressed or validly gzip/deflate/br-encoded.`,
      );
    } else {
      const message = isHttpError(error) ? error.message : String(error);
      log(logLine({ level: 'error', event: 'request-failed', error: message }));
      refuse(
        res,
        500,
        'Internal error: the server failed to handle this request; see the server log.',
        RpcCode.InternalError,
      );
    }
  };
}
