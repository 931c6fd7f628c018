/**
 * A PDF refused because too many wait (shared/pdf PdfReaderBusy) is nothing wrong with the file:
 * the activity fails retryable, and the next try waits long enough for the queue to drain (the
 * workflow's own backoff would spend its few attempts within seconds).
 */
import { ApplicationFailure } from '@temporalio/activity';
import { PdfReaderBusy } from '../shared/pdf/index.js';

/** How long a try refused for a busy PDF reader waits before the next (about one PDF deadline). */
export const PDF_BUSY_RETRY_DELAY = '1 minute';

/** Runs `work`; a busy PDF reader becomes a retryable failure whose next try comes after PDF_BUSY_RETRY_DELAY. */
export async function retryWhenPdfBusy<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PdfReaderBusy)) throw error;
    throw ApplicationFailure.create({ message: error.message, type: error.name, nextRetryDelay: PDF_BUSY_RETRY_DELAY });
  }
}
