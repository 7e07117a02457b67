// What the PDF renderers share (invoice-pdf.ts, receipt-pdf.ts): the embedded fonts, the
// seller's logo, and the archival (PDF/A-3) parts Factur-X needs (facturx.ts).

import { openSync, type Font, type GlyphRun } from 'fontkit';

/** The embedded fonts, from the @expo-google-fonts/noto-sans package (OFL-1.1). */
const FONT_FILES = {
  body: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
};

const parsedFonts = new Map<keyof typeof FONT_FILES, Font>();

/**
 * A face of FONT_FILES parsed once per process, for `new PDFDocument({ font })` and
 * `registerFont`. Given a path, pdfkit reads and parses the file for every document, three
 * times per invoice (the default font and both faces): about 100 ms of CPU per PDF, spent on
 * the event loop of the process that renders the invoice e-mail's attachment, which held the
 * invoices benchmark's create-finalize-send to a few per second (bench/README.md). pdfkit 0.20
 * also takes a parsed fontkit font (`PDFFontFactory.open`: any object with `layout`) and only
 * reads it (each document builds its own subset), so one parse serves every document. The
 * cast: @types/pdfkit types the source as a path or bytes only.
 */
export function pdfFont(face: keyof typeof FONT_FILES): string {
  let font = parsedFonts.get(face);
  if (!font) {
    font = withSubsetCache(withLayoutCache(openSync(FONT_FILES[face]) as Font));
    parsedFonts.set(face, font);
  }
  return font as unknown as string;
}

/**
 * The name to register a face under and select it by: its PostScript name. pdfkit files the
 * document's default font (the body face, given to the constructor) under that name, so
 * `doc.font(name)` finds it at once. Under any other name, every `doc.font()` call opened the
 * face again (a new EmbeddedFont and subset) and compared it with the default by serializing
 * both fonts' name tables (pdfkit's isEqualFont): about 1.3 ms of CPU per invoice.
 */
export function pdfFontName(face: keyof typeof FONT_FILES): string {
  return (pdfFont(face) as unknown as Font).postscriptName;
}

/** Shaped words kept per face (the oldest go first beyond it): a few MB at most. */
const LAYOUT_CACHE_SIZE = 20_000;

/**
 * Shapes each word once per process. pdfkit lays text out word by word through fontkit's
 * OpenType shaper (`font.layout`, GSUB and GPOS), and caches the result per document only, so
 * every invoice shaped its labels, the seller's name and the same figures again (about 50 µs
 * a word; with this cache, 1 to 2 ms less CPU per invoice PDF, bench/README.md finding 19). A cached run is
 * handed out as a copy whose positions are new objects, because pdfkit scales a run's
 * positions in place (EmbeddedFont.layoutRun); the glyphs are shared and only read. Calls
 * with OpenType features (none here) are shaped every time.
 */
function withLayoutCache(font: Font): Font {
  const layout = font.layout.bind(font);
  const cache = new Map<string, GlyphRun>();
  const copy = (run: GlyphRun): GlyphRun =>
    Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRun, run, {
      positions: run.positions.map((position) => ({ ...position })),
    });
  font.layout = ((text: string, ...options: unknown[]) => {
    if (options.some((option) => option !== undefined)) {
      return (layout as (text: string, ...options: unknown[]) => GlyphRun)(text, ...options);
    }
    let run = cache.get(text);
    if (!run) {
      run = layout(text);
      if (cache.size >= LAYOUT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(text, run);
    }
    return copy(run);
  }) as Font['layout'];
  return font;
}

/** What fontkit's TrueType subset (TTFSubset, fontkit 2.0) reads and writes, for withSubsetCache. */
interface TrueTypeFont {
  directory: { tables: Record<string, unknown> };
  _variationProcessor?: unknown;
  loca: { offsets: number[] };
  getGlyph(gid: number): {
    _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
    advanceWidth: number;
    _getMetrics(): { leftBearing: number };
  };
  _getTableStream(tag: 'glyf'): { pos: number; readBuffer(length: number): Uint8Array };
  createSubset(): TrueTypeSubset;
}
interface TrueTypeSubset {
  glyf: Uint8Array[];
  loca: { offsets: number[] };
  hmtx: { metrics: { advance: number; bearing: number }[] };
  offset: number;
  includeGlyph(gid: number): number;
  _addGlyph(gid: number): number;
}

/** A glyph as a subset copies it: its bytes in the glyf table, a compound's component slots, its metrics. */
interface StoredGlyph {
  bytes: Uint8Array;
  components: { glyphID: number; pos: number }[] | null;
  advance: number;
  bearing: number;
}

/**
 * Reads each glyph of the font once per process for the PDFs' font subsets. Every PDF embeds
 * a subset of each face it uses (its glyphs only), and fontkit's TTFSubset decoded every glyph
 * of it again, outline and all, only to learn whether it is a compound glyph (whose component
 * ids it renumbers): about 1 ms of the 5 to 6 ms of CPU an invoice PDF takes (bench/README.md
 * finding 33). This subset does what TTFSubset._addGlyph does (fontkit 2.0.4: the same bytes,
 * loca offsets and metrics; tests/unit/pdf-fonts.test.ts compares the encoded subsets) from
 * what the first read kept. The bytes are shared and only read; a compound glyph's copy is
 * renumbered per subset. A font this does not fit (CFF outlines, variations) is left alone.
 */
function withSubsetCache(font: Font): Font {
  const ttf = font as unknown as TrueTypeFont;
  if (ttf.directory.tables['CFF '] || ttf._variationProcessor) return font;
  const stored = new Map<number, StoredGlyph>();
  const read = (gid: number): StoredGlyph => {
    let glyph = stored.get(gid);
    if (!glyph) {
      const source = ttf.getGlyph(gid);
      const decoded = source._decode();
      const stream = ttf._getTableStream('glyf');
      stream.pos += ttf.loca.offsets[gid];
      glyph = {
        bytes: Uint8Array.from(stream.readBuffer(ttf.loca.offsets[gid + 1] - ttf.loca.offsets[gid])),
        components: decoded && decoded.numberOfContours < 0 ? (decoded.components ?? []) : null,
        advance: source.advanceWidth,
        bearing: source._getMetrics().leftBearing,
      };
      stored.set(gid, glyph);
    }
    return glyph;
  };
  const createSubset = ttf.createSubset.bind(ttf);
  ttf.createSubset = () => {
    const subset = createSubset();
    subset._addGlyph = function addGlyph(this: TrueTypeSubset, gid: number): number {
      const glyph = read(gid);
      let bytes = glyph.bytes;
      if (glyph.components) {
        bytes = Uint8Array.from(bytes);
        const view = new DataView(bytes.buffer);
        for (const component of glyph.components)
          view.setUint16(component.pos, this.includeGlyph(component.glyphID));
      }
      this.glyf.push(bytes);
      this.loca.offsets.push(this.offset);
      this.hmtx.metrics.push({ advance: glyph.advance, bearing: glyph.bearing });
      this.offset += bytes.length;
      return this.glyf.length - 1;
    };
    return subset;
  };
  return font;
}

/** Logos are drawn within this box (points), keeping their proportions. */
const LOGO_BOX = { width: 120, height: 28 };

/**
 * Draws the logo at (x, y) fitted in LOGO_BOX (proportions kept); answers the width the name
 * must leave for it. An image pdfkit cannot read (the upload checked its first bytes only) is
 * left out, not fatal: the document matters more than its decoration.
 */
export function drawLogo(doc: PDFKit.PDFDocument, logo: Buffer, x: number, y: number): number {
  try {
    doc.image(logo, x, y - 4, { fit: [LOGO_BOX.width, LOGO_BOX.height] });
    return LOGO_BOX.width + 10;
  } catch {
    return 0;
  }
}

/**
 * An archival (PDF/A-3b) rendering with embedded files, as Factur-X needs (documents/facturx.ts):
 * the attachments are associated with the document (catalog /AF, their AFRelationship) and
 * `xmp` is added to the document's XMP metadata (e.g. the Factur-X extension schema).
 */
export interface PdfArchive {
  attachments: {
    name: string;
    content: Buffer;
    mime: string;
    description: string;
    relationship: 'Alternative' | 'Data' | 'Source' | 'Supplement' | 'Unspecified';
  }[];
  xmp: string;
}

/** Adds the attachments (with their AFRelationship) and the extra XMP of an archival rendering. */
export function attachArchive(doc: PDFKit.PDFDocument, archive: PdfArchive, date: Date): void {
  for (const file of archive.attachments) {
    // `relationship` (the file specification's AFRelationship) is pdfkit's, missing from its types.
    const options = {
      name: file.name,
      type: file.mime,
      description: file.description,
      relationship: file.relationship,
      creationDate: date,
      modifiedDate: date,
    };
    doc.file(file.content, options);
  }
  doc.appendXML(archive.xmp);
}

const XMP_SAFE = { '&': '\uFF06', '<': '\u2039', '>': '\u203A' } as const;

/**
 * pdfkit copies the info strings into the XMP packet unescaped (PDF/A writes one): "Weiß &
 * Söhne" would break the XML. Look-alikes keep the info and the XMP equal, as PDF/A asks.
 */
export const xmpSafe = (value: string) =>
  value.replace(/[&<>]/g, (c) => XMP_SAFE[c as keyof typeof XMP_SAFE]);
