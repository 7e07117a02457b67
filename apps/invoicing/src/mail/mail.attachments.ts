// Attachment builders, registered by the modules that own the documents (invoices register
// `invoice_pdf`, estimates `estimate_pdf`). A mail names its attachments; the worker calls the
// builders when it sends, so a PDF always shows the document's data at send time and the
// queue row stays small.

import type { Tenant } from '@paygrid/platform';
import type { MailAttachmentRef } from './mail.queue';

export interface BuiltAttachment {
  content: Buffer;
  contentType: string;
}

export type AttachmentBuilder = (ref: string, owner: Tenant) => Promise<BuiltAttachment>;

/** A builder's verdict that the mail can never be sent (the document is gone): no retry. */
export class PermanentMailError extends Error {}

export class MailAttachments {
  private readonly builders = new Map<string, AttachmentBuilder>();

  register(kind: string, builder: AttachmentBuilder): void {
    if (this.builders.has(kind)) throw new Error(`attachment kind ${kind} is already registered`);
    this.builders.set(kind, builder);
  }

  async build(
    refs: readonly MailAttachmentRef[],
    owner: Tenant,
  ): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
    const built = [];
    for (const ref of refs) {
      const builder = this.builders.get(ref.kind);
      // Not registered (yet): an older instance may be draining the queue; retry later.
      if (!builder) throw new Error(`no attachment builder for kind ${ref.kind}`);
      built.push({ filename: ref.filename, ...(await builder(ref.ref, owner)) });
    }
    return built;
  }
}
