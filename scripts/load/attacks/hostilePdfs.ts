/**
 * Hostile PDFs for the attacks on the server's PDF text (issue 41, findings 5 and 9; `pdf.ts`), built here,
 * small and deterministic: a one-page document whose few kilobytes of compressed content stream are megabytes
 * of text, and a document of about 2 MB whose streams inflate to gigabytes. `test/pdfText.test.ts` reads the
 * first in the small.
 *
 * Both are served as Latin-1 strings (one character a byte), as `sites.ts` serves a body.
 */
import { constants, deflateRawSync } from 'node:zlib';

/** A PDF object: its dictionary (or any other object), and a stream's bytes after it when there is one. */
interface PdfObject {
  readonly dictionary: string;
  /** The stream's bytes as stored (a `/Length` is added to the dictionary). */
  readonly stream?: Buffer;
}

/**
 * A PDF of `objects`, numbered from 1, the first its catalog, with the cross-reference table a reader needs.
 * Written by hand as `scripts/site/pdfDocument.ts` is (a PDF library would be a dependency for a few objects),
 * but with streams of any bytes.
 */
function pdfFile(objects: readonly PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const push = (part: Buffer): void => {
    parts.push(part);
    length += part.length;
  };
  const offsets: number[] = [];
  objects.forEach(({ dictionary, stream }, i) => {
    offsets.push(length);
    if (stream === undefined) push(Buffer.from(`${i + 1} 0 obj\n${dictionary}\nendobj\n`, 'latin1'));
    else {
      // The dictionary's closing `>>` gets the stream's length before it.
      push(Buffer.from(`${i + 1} 0 obj\n${dictionary.replace(/>>\s*$/, `/Length ${stream.length} >>`)}\nstream\n`, 'latin1'));
      push(stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xref = length;
  // Each entry is 20 bytes: 10 digits, a space, 5 digits, a space, the type, a space and a line feed.
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** The objects every one-page document here starts with: catalog, page tree, the page (content stream: object 4). */
const ONE_PAGE = (resources: string): PdfObject[] => [
  { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
  { dictionary: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
  { dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources ${resources} >>` },
];

/** Characters each glyph of `textBombPdf` stands for. */
const GLYPH_CHARS = 1000;

/**
 * One page of about 13 KB whose text is `chars` characters (`x`s): it shows a glyph `chars / 1000` times,
 * a line a thousand, in a standard font whose ToUnicode map says that glyph is a thousand `x`s (so pdf.js
 * works per glyph, not per character, and the text is had in a second). Finding 9: 8,001,599 characters of
 * a 10 KB page.
 */
export function textBombPdf(chars: number): Buffer {
  const glyphs = Math.ceil(chars / GLYPH_CHARS);
  const lines: string[] = [];
  for (let left = glyphs; left > 0; left -= 1000) lines.push(`(${'x'.repeat(Math.min(1000, left))}) Tj T*`);
  const content = `BT /F1 1 Tf 2 TL 72 720 Td\n${lines.join('\n')}\nET`;
  const toUnicode = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /OneGlyphManyCharacters def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `1 beginbfchar <78> <${'0078'.repeat(GLYPH_CHARS)}> endbfchar`,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  return pdfFile([
    ...ONE_PAGE('<< /Font << /F1 5 0 R >> >>'),
    { dictionary: '<< >>', stream: Buffer.from(content, 'latin1') },
    { dictionary: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>' },
    { dictionary: '<< >>', stream: Buffer.from(toUnicode, 'latin1') },
  ]);
}

/**
 * A zlib stream (RFC 1950) that inflates to `count` bytes `byte`, about a thousandth of that in size, built in
 * milliseconds: one mebibyte of them deflated and flushed (Z_FULL_FLUSH ends it on a byte boundary with nothing
 * referred to across it), that repeated, a final empty block, and the Adler-32 of the whole worked out. zlib
 * itself would deflate every one of the gigabytes (seconds, and the memory of a buffer to feed it).
 */
export function zlibOfRepeated(byte: number, count: number): Buffer {
  const BLOCK = 1024 * 1024;
  const block = deflateRawSync(Buffer.alloc(BLOCK, byte), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const blocks = Math.ceil(count / BLOCK);
  const n = BigInt(blocks * BLOCK);
  const f = BigInt(byte);
  // Adler-32 of n bytes f: A = 1 + n·f, B = n + f·n(n+1)/2, both mod 65521.
  const a = Number((1n + n * f) % 65521n);
  const b = Number((n + (f * n * (n + 1n)) / 2n) % 65521n);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(blocks).fill(block), deflateRawSync(Buffer.alloc(0)), adler]);
}

/**
 * One page whose content stream, about `bytes` compressed (FlateDecode), inflates to a thousand times that of
 * spaces: pdf.js inflates it into typed arrays, outside the V8 heap, as it reads the page for its text.
 * Finding 5: two of 2.1 MB took the server to 3142 MiB.
 */
export function inflatingPdf(bytes: number): Buffer {
  return pdfFile([...ONE_PAGE('<< >>'), { dictionary: '<< /Filter /FlateDecode >>', stream: zlibOfRepeated(0x20, bytes * 1000) }]);
}
