// The shared fonts of the PDF renderers (apps/invoicing/src/documents/pdf-parts.ts): a word is
// shaped once per process, and what pdfkit does to a run it was handed never reaches the next;
// a glyph is read once per process for the documents' font subsets, which stay fontkit's bytes.

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
  getGlyph(gid: number): { _decode(): { numberOfContours: number } | null };
  createSubset(): Subset;
}
interface Subset {
  includeGlyph(gid: number): number;
  encode(): Uint8Array;
  _addGlyph(gid: number): number;
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

  it('subsets a face as fontkit does, compound glyphs renumbered, reading each glyph once', () => {
    // Letters with diacritics are compound glyphs in Noto Sans (a base and a mark), whose
    // component ids a subset renumbers; "ﬁ" and "€" are simple ones.
    const text = 'Zoë Łukasiewicz, Åsa Öberg, Jürgen Weiß: ﬁne 1,234.56 € ŠĆŽ';
    const glyphs = shared()
      .layout(text)
      .glyphs.map((glyph) => glyph.id);
    const compound = glyphs.filter((gid) => (shared().getGlyph(gid)._decode()?.numberOfContours ?? 0) < 0);
    expect(compound.length).toBeGreaterThan(3);
    const encode = (subset: Subset) => {
      for (const gid of glyphs) subset.includeGlyph(gid);
      return Buffer.from(subset.encode());
    };
    // fontkit's own TTFSubset: the cache replaces _addGlyph on each subset it hands out.
    const fontkits = shared().createSubset();
    delete (fontkits as Partial<Subset>)._addGlyph;
    const expected = encode(fontkits);
    expect(encode(shared().createSubset())).toEqual(expected);
    // The second subset reads nothing of the glyphs again (fontkit's TTFGlyph._decode).
    const decode = jest.spyOn(
      Object.getPrototypeOf(shared().getGlyph(glyphs[1])) as { _decode(): unknown },
      '_decode',
    );
    try {
      expect(encode(shared().createSubset())).toEqual(expected);
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
  });

  it('names each face by its PostScript name, the name pdfkit files the default font under', () => {
    expect(pdfFontName('body')).toBe(shared().postscriptName);
    expect(pdfFontName('bold')).not.toBe(pdfFontName('body'));
  });
});
