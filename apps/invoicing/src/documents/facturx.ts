// The invoice as a Factur-X / ZUGFeRD 2.x PDF in the EN 16931 profile: the same PDF the
// customer reads (invoice-pdf.ts), rendered as PDF/A-3b (embedded fonts, sRGB output intent,
// XMP metadata) with the CII XML of the invoice (cii.ts) attached as `factur-x.xml`, its
// relationship `Alternative` (the XML is the invoice in another form), and the Factur-X XMP
// extension schema that names the file, its type, version and conformance level.
//
// pdfkit (already the renderer) writes all of it itself since 0.14: PDF/A subsets, embedded
// files with AFRelationship and the catalog's /AF, custom XMP; no second PDF library needed.

import type { SerializedInvoice } from '../invoices/invoice.serializer';
import { invoiceToCii } from './cii';
import type { InvoiceDocumentView } from './invoice-pdf';
import { renderInvoicePdf } from './pdf-rendering';

export const FACTURX_FILENAME = 'factur-x.xml';
const FX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const property = (name: string, description: string) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${description}</pdfaProperty:description>
              </rdf:li>`;

/** The Factur-X properties and the PDF/A extension schema that declares them (PDF/A needs both). */
const FACTURX_XMP = `
        <rdf:Description rdf:about="" xmlns:fx="${FX_NS}">
          <fx:DocumentType>INVOICE</fx:DocumentType>
          <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
          <fx:Version>1.0</fx:Version>
          <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${property('DocumentFileName', 'name of the embedded XML invoice file')}${property('DocumentType', 'INVOICE')}${property('Version', 'The actual version of the Factur-X XML schema')}${property('ConformanceLevel', 'The conformance level of the embedded Factur-X data')}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>`;

/**
 * The Factur-X PDF of a finalized invoice; throws a RangeError naming what EN 16931 needs and
 * the invoice lacks (callers check missingForEInvoice first and answer 409).
 */
export function renderFacturX(invoice: SerializedInvoice, view: InvoiceDocumentView): Promise<Buffer> {
  const xml = invoiceToCii(invoice);
  return renderInvoicePdf(view, {
    attachments: [
      {
        name: FACTURX_FILENAME,
        content: Buffer.from(xml, 'utf8'),
        mime: 'text/xml',
        description: `Factur-X invoice ${invoice.number ?? ''}`.trim(),
        relationship: 'Alternative',
      },
    ],
    xmp: FACTURX_XMP,
  });
}
