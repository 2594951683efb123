/**
 * A one-page PDF showing `lines` of text, one line each in Helvetica: a catalog, its page tree, one page, its
 * content stream and a standard font, with the cross-reference table a reader needs. Written by hand, as it is
 * a handful of objects (a PDF library would be a dependency for these few hundred bytes). The lines are
 * printable ASCII, so the document's bytes are its characters: send it as is, or as `Buffer.from(pdf, 'latin1')`.
 */
export function pdfDocument(lines: readonly string[]): string {
  for (const line of lines)
    if (!/^[\x20-\x7e]*$/.test(line)) throw new RangeError(`a PDF line must be printable ASCII: ${JSON.stringify(line)}`);
  // In a PDF string, a backslash and unbalanced parentheses are escaped.
  const escape = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = lines.map((line, i) => `BT /F1 12 Tf 72 ${720 - i * 20} Td (${escape(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  // Each entry is 20 bytes: 10 digits, a space, 5 digits, a space, the type, a space and a line feed.
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}
