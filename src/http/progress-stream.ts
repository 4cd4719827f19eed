import { PassThrough } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problemDocument, toAppError } from './problem.js';

/** The media type of a long request's progress: one JSON object a line. */
export const PROGRESS_MEDIA_TYPE = 'application/x-ndjson';

/** Whether the client asked to hear a long request's progress (Accept: application/x-ndjson). */
export function wantsProgress(request: FastifyRequest): boolean {
  return request.headers.accept?.includes(PROGRESS_MEDIA_TYPE) ?? false;
}

/**
 * Runs `work`, answering with its progress as it goes: `{"progress": …}` lines, then `{"result": …}`.
 * Until the first progress the answer is still open, so a refusal before it (bad input) is the usual
 * problem document with its 4xx; one after it comes in band, as `{"problem": …}` on the last line.
 */
export async function answerWithProgress<P, R>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (onProgress: (progress: P) => void) => Promise<R>,
): Promise<R | FastifyReply> {
  // Opened by the first progress: until then the answer may still be a plain success or refusal.
  const open: { lines?: PassThrough } = {};
  const line = (lines: PassThrough, value: object) => lines.write(`${JSON.stringify(value)}\n`);
  const onProgress = (progress: P) => {
    if (!open.lines) {
      open.lines = new PassThrough();
      void reply.type(PROGRESS_MEDIA_TYPE).header('cache-control', 'no-store').send(open.lines);
    }
    line(open.lines, { progress });
  };
  let last: object;
  try {
    const result = await work(onProgress);
    if (!open.lines) return result;
    last = { result };
  } catch (error) {
    if (!open.lines) throw error;
    last = { problem: problemDocument(request, toAppError(error as FastifyError, request)) };
  }
  open.lines.end(`${JSON.stringify(last)}\n`);
  return reply;
}
