/**
 * Drawing a tile from a file's bytes: documents as a page (page.ts) rendered by sharp (librsvg
 * with the system fonts) in light and dark; raster images scaled by sharp to cover 800x600 (BMP
 * and ICO, which libvips does not read, decoded first by @napi-rs/canvas's Skia); an SVG file by
 * sharp from a buffer (librsvg resolves no external reference for it: there is no base file, and
 * network loads are never made); a PDF's first page by pdfjs-dist onto @napi-rs/canvas, in the PDF thread (shared/pdf). Every
 * sharp pipeline is bounded in pixels (decompression bombs) and in time.
 *
 * A file that cannot be drawn (corrupt, a bomb, an unreadable page) throws ThumbnailDrawError
 * naming the variant: the draw is recorded failed, never retried on its own.
 */
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { pdfReader, PdfReaderBusy } from '../../pdf/index.js';
import { pageSvg, pageText } from './page.js';
import { isDocumentFamily, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH, type DrawableFamily, type ThumbnailVariant } from './rules.js';

/** Decoded images larger than this many pixels are refused (a 1 MB PNG can claim gigapixels). */
export const MAX_INPUT_PIXELS = 50_000_000;
/** One sharp pipeline's time limit. */
const SHARP_TIMEOUT_SECONDS = 20;
/** A PDF page is rendered at most this many pixels wide or high before scaling. */
const PDF_RENDER_LIMIT = 1600;

export interface DrawnVariant {
  variant: ThumbnailVariant;
  bytes: Buffer;
}

export class ThumbnailDrawError extends Error {
  constructor(
    message: string,
    readonly variant: ThumbnailVariant,
  ) {
    super(message);
    this.name = 'ThumbnailDrawError';
  }
}

function bounded(input: Buffer, extra: SharpOptions = {}): Sharp {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', ...extra }).timeout({ seconds: SHARP_TIMEOUT_SECONDS });
}

function png(image: Sharp): Promise<Buffer> {
  return image.png({ compressionLevel: 9, palette: false }).toBuffer();
}

/**
 * Draws every variant of the family; a failure names the variant that failed. `caller` is whose
 * turn a PDF waits in (shared/pdf); a PDF refused because too many wait throws PdfReaderBusy as
 * it is (nothing is wrong with the file: the draw is retried later, never recorded failed).
 */
export async function drawTile(family: DrawableFamily, bytes: Buffer, caller: string): Promise<DrawnVariant[]> {
  if (isDocumentFamily(family)) {
    const page = pageText(family, bytes.toString('utf8'));
    const drawn: DrawnVariant[] = [];
    for (const variant of ['light', 'dark'] as const) {
      drawn.push({ variant, bytes: await named(variant, () => png(bounded(Buffer.from(pageSvg(page, variant))))) });
    }
    return drawn;
  }
  return [{ variant: 'image', bytes: await named('image', () => drawImage(family, bytes, caller)) }];
}

async function named(variant: ThumbnailVariant, draw: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return await draw();
  } catch (err) {
    if (err instanceof PdfReaderBusy) throw err;
    throw new ThumbnailDrawError(reasonOf(err), variant);
  }
}

/** The reason recorded: the renderer's message, one line, cut. */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 300) || 'the renderer failed';
}

async function drawImage(family: 'svg' | 'raster' | 'pdf', bytes: Buffer, caller: string): Promise<Buffer> {
  const frame = { width: THUMBNAIL_WIDTH, height: THUMBNAIL_HEIGHT };
  switch (family) {
    case 'raster': {
      const input = isSkiaOnly(bytes) ? await decodeWithSkia(bytes) : bytes;
      return png(bounded(input, { animated: false }).rotate().resize({ ...frame, fit: 'cover' }));
    }
    case 'svg':
      return png(bounded(bytes).resize({ ...frame, fit: 'contain', background: '#ffffff' }).flatten({ background: '#ffffff' }));
    case 'pdf':
      return png(bounded(await renderPdfFirstPage(bytes, caller)).resize({ ...frame, fit: 'cover', position: 'top' }).flatten({ background: '#ffffff' }));
  }
}

/** BMP ("BM") and ICO (reserved 0, type 1): formats libvips has no loader for here. */
function isSkiaOnly(bytes: Buffer): boolean {
  const bmp = bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d;
  const ico = bytes.length >= 4 && bytes.readUInt16LE(0) === 0 && bytes.readUInt16LE(2) === 1;
  return bmp || ico;
}

async function decodeWithSkia(bytes: Buffer): Promise<Buffer> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(bytes);
  if (image.width * image.height > MAX_INPUT_PIXELS) throw new Error(`image of ${image.width}x${image.height} pixels is larger than the ${MAX_INPUT_PIXELS}-pixel limit`);
  if (image.width === 0 || image.height === 0) throw new Error('the image could not be decoded');
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.encode('png');
}

/** The first page, white behind it, at most PDF_RENDER_LIMIT pixels on its longer side (in the PDF thread: shared/pdf). */
function renderPdfFirstPage(bytes: Buffer, caller: string): Promise<Buffer> {
  return pdfReader.firstPage(bytes, PDF_RENDER_LIMIT, caller);
}
