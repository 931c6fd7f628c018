// PDFs read in a thread of their own (pdf.js patches the built-ins of the realm that loads it): text and a first page.
import { PdfReader } from './reader.js';

export { PDF_DEADLINE_MS, PdfReader } from './reader.js';

/** The process's PDF reader: its thread starts with the first PDF read and never keeps the process alive. */
export const pdfReader = new PdfReader();
