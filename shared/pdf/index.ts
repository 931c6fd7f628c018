// PDFs read in threads of their own (pdf.js patches the built-ins of the realm that loads it): text and a first page.
import { PdfReader } from './reader.js';

export { PDF_DEADLINE_MS, PdfReader, PdfReaderBusy, type PdfReaderLimits } from './reader.js';

/**
 * The process's PDF reader: its threads start with the first PDFs read and never keep the process
 * alive; the composition root sets its limits from `resources.pdf` (configure).
 */
export const pdfReader = new PdfReader();
