// The shared fonts of the PDF renderers (apps/invoicing/src/documents/pdf-parts.ts): a word is
// shaped once per process, and what pdfkit does to a run it was handed never reaches the next.

import { pdfFont, pdfFontName } from '../../apps/invoicing/src/documents/pdf-parts';

/** What the tests read of a fontkit font and its glyph runs. */
interface GlyphRun {
  glyphs: { id: number }[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
  advanceWidth: number;
}
interface Font {
  postscriptName: string;
  layout(text: string): GlyphRun;
}

const shared = () => pdfFont('body') as unknown as Font;
/** fontkit's own layout, past the cache (an own property of the shared font object). */
const uncached = (text: string) =>
  (Object.getPrototypeOf(shared()) as Font).layout.call(shared(), text) as GlyphRun;
const shape = (run: GlyphRun) => ({
  glyphs: run.glyphs.map((glyph) => glyph.id),
  positions: run.positions.map((p) => [p.xAdvance, p.yAdvance, p.xOffset, p.yOffset]),
  advanceWidth: run.advanceWidth,
});

describe('PDF fonts', () => {
  it('lays a word out as fontkit does (kerning included), from the cache the second time', () => {
    const expected = shape(uncached('AVAWA Tov'));
    expect(shape(shared().layout('AVAWA Tov'))).toEqual(expected);
    expect(shape(shared().layout('AVAWA Tov'))).toEqual(expected);
    // Kerned: the pair AV is narrower than A and V apart.
    const pair = shared().layout('AV').advanceWidth;
    expect(pair).toBeLessThan(shared().layout('A').advanceWidth + shared().layout('V').advanceWidth);
  });

  it('hands out a copy: positions scaled in place by pdfkit do not change the next run', () => {
    const first = shared().layout('Invoice ');
    const before = shape(first);
    for (const position of first.positions) position.xAdvance *= 1000;
    expect(shape(shared().layout('Invoice '))).toEqual(before);
  });

  it('names each face by its PostScript name, the name pdfkit files the default font under', () => {
    expect(pdfFontName('body')).toBe(shared().postscriptName);
    expect(pdfFontName('bold')).not.toBe(pdfFontName('body'));
  });
});
