/**
 * Files of every drawable thumbnail family, made in code (deterministic bytes), and the tolerant
 * comparison of a drawn tile with its checked-in reference in test/fixtures/thumbnails/. With
 * UPDATE_THUMBNAIL_REFERENCES=1 a missing or differing reference is (re)written instead.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { simplePdf } from '../support/pdf.js';

export const referenceDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'thumbnails');

export interface FamilyFile {
  name: string;
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/** A 480x240 picture with shapes (so a cover crop is visible), as SVG text. */
const artSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="240" viewBox="0 0 480 240">
<rect width="480" height="240" fill="#2d6cdf"/><circle cx="120" cy="120" r="90" fill="#ffcc00"/>
<rect x="260" y="40" width="180" height="160" fill="#e8453c"/><rect x="0" y="200" width="480" height="40" fill="#1b1f23"/></svg>`;

async function raster(format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif'): Promise<Buffer> {
  const base = sharp(Buffer.from(artSvg));
  switch (format) {
    case 'png':
      return base.png().toBuffer();
    case 'jpeg':
      return base.jpeg({ quality: 90 }).toBuffer();
    case 'gif':
      return base.gif().toBuffer();
    case 'webp':
      return base.webp({ lossless: true }).toBuffer();
    case 'avif':
      return base.avif({ quality: 80, effort: 2 }).toBuffer();
  }
}

/** An uncompressed 24-bit BMP of the picture (libvips has no BMP loader: Skia decodes it). */
async function bmp(): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(artSvg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const row = Math.ceil((info.width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + row * info.height);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(info.width, 18);
  out.writeInt32LE(info.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const src = ((info.height - 1 - y) * info.width + x) * 3;
      const dst = 54 + y * row + x * 3;
      out[dst] = data[src + 2]!;
      out[dst + 1] = data[src + 1]!;
      out[dst + 2] = data[src]!;
    }
  }
  return out;
}

/** An ICO holding one 64x64 PNG image (the modern layout). */
async function ico(): Promise<Buffer> {
  const png = await sharp(Buffer.from(artSvg)).resize(64, 64).png().toBuffer();
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(1, 4);
  head[6] = 64;
  head[7] = 64;
  head.writeUInt16LE(1, 10);
  head.writeUInt16LE(32, 12);
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18);
  return Buffer.concat([head, png]);
}

const code = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`);

/** One file per family (documents and images), deterministic bytes. */
export async function familyFiles(): Promise<FamilyFile[]> {
  const csvRows = Array.from({ length: 25 }, (_, i) => `${i + 1},"Store ${i + 1}, Oslo",${(i * 137) % 1000}.50`);
  return [
    { name: 'markdown', fileName: 'readme.md', contentType: 'text/markdown', bytes: code(['# Quarterly report', '', 'Revenue grew in **every** region.', '', '- Oslo: 12%', '- Paris: 9%']) },
    { name: 'csv', fileName: 'sales.csv', contentType: 'text/csv', bytes: code(['id,store,amount', ...csvRows]) },
    { name: 'tsv', fileName: 'sales.tsv', contentType: 'text/tab-separated-values', bytes: code(['id\tstore\tamount', ...csvRows.map((r) => r.replace(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/g, '\t'))]) },
    { name: 'json', fileName: 'config.json', contentType: 'application/json', bytes: code([JSON.stringify({ name: 'report', regions: ['Oslo', 'Paris'], total: 1234.5 }, null, 2)]) },
    { name: 'ndjson', fileName: 'events.ndjson', contentType: 'application/x-ndjson', bytes: code(Array.from({ length: 8 }, (_, i) => JSON.stringify({ id: i, kind: 'click', at: `2030-01-0${(i % 9) + 1}` }))) },
    { name: 'text', fileName: 'notes.txt', contentType: 'text/plain', bytes: code(['Meeting notes', '', 'Attendees: Ana, Bo, Chen', 'Decision: ship the report on Friday.']) },
    { name: 'html', fileName: 'page.html', contentType: 'text/html', bytes: code(['<!doctype html>', '<html><head><script src="http://127.0.0.1:9/x.js"></script></head>', '<body><h1>Hello</h1><img src="http://127.0.0.1:9/x.png"></body></html>']) },
    { name: 'jsx', fileName: 'App.jsx', contentType: 'text/jsx', bytes: code(['export function App() {', '  return <h1 className="title">Hello</h1>;', '}']) },
    { name: 'yaml', fileName: 'deploy.yaml', contentType: 'application/yaml', bytes: code(['service: reports', 'replicas: 3', 'env:', '  - name: REGION', '    value: eu-north']) },
    { name: 'xml', fileName: 'feed.xml', contentType: 'application/xml', bytes: code(['<?xml version="1.0"?>', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', '<feed><title>&e;</title></feed>']) },
    { name: 'sql', fileName: 'query.sql', contentType: 'application/sql', bytes: code(['SELECT store, sum(amount)', 'FROM sales', 'GROUP BY store', 'ORDER BY 2 DESC;']) },
    { name: 'python', fileName: 'job.py', contentType: 'text/x-python', bytes: code(['def total(rows):', '    return sum(r["amount"] for r in rows)', '', 'print(total([]))']) },
    { name: 'javascript', fileName: 'main.mjs', contentType: 'text/javascript', bytes: code(['const rows = await fetch("/api");', 'console.log(rows.length);']) },
    { name: 'css', fileName: 'site.css', contentType: 'text/css', bytes: code(['body { background: url("http://127.0.0.1:9/bg.png"); }', 'h1 { color: #c00; }']) },
    { name: 'svg', fileName: 'logo.svg', contentType: 'image/svg+xml', bytes: Buffer.from(artSvg.replace('</svg>', '<image href="http://127.0.0.1:9/x.png" width="40" height="40"/></svg>')) },
    { name: 'png', fileName: 'photo.png', contentType: 'image/png', bytes: await raster('png') },
    { name: 'jpeg', fileName: 'photo.jpg', contentType: 'image/jpeg', bytes: await raster('jpeg') },
    { name: 'gif', fileName: 'photo.gif', contentType: 'image/gif', bytes: await raster('gif') },
    { name: 'webp', fileName: 'photo.webp', contentType: 'image/webp', bytes: await raster('webp') },
    { name: 'avif', fileName: 'photo.avif', contentType: 'image/avif', bytes: await raster('avif') },
    { name: 'bmp', fileName: 'photo.bmp', contentType: 'image/bmp', bytes: await bmp() },
    { name: 'ico', fileName: 'favicon.ico', contentType: 'image/x-icon', bytes: await ico() },
    { name: 'pdf', fileName: 'report.pdf', contentType: 'application/pdf', bytes: simplePdf(3) },
  ];
}

/** Mean absolute channel difference (0–255) between two same-sized images. */
export async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [ra, rb] = await Promise.all([a, b].map((x) => sharp(x).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (ra!.info.width !== rb!.info.width || ra!.info.height !== rb!.info.height) return 255;
  let sum = 0;
  for (let i = 0; i < ra!.data.length; i++) sum += Math.abs(ra!.data[i]! - rb!.data[i]!);
  return sum / ra!.data.length;
}

/** The tile's difference from its reference (writing the reference first when asked to). */
export async function differenceFromReference(name: string, tile: Buffer): Promise<number> {
  const path = join(referenceDir, `${name}.png`);
  if (process.env['UPDATE_THUMBNAIL_REFERENCES'] === '1' && (!existsSync(path) || (await meanDifference(tile, await readFile(path))) > 0)) {
    await mkdir(referenceDir, { recursive: true });
    await writeFile(path, tile);
  }
  return meanDifference(tile, await readFile(path));
}
