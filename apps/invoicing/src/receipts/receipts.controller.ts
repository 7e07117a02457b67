// HTTP only: a payment's receipt as PDF. The URL is under /v1/transactions (the payment it is
// for); the gateway routes this one path to invoicing, which issues receipts (docs/adr/0012).

import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, Operation, RequireScope, sendPdf } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { receiptPdfFilename, ReceiptsService } from './receipts.service';

@Controller('v1/transactions')
export class ReceiptsController {
  constructor(@Inject(ReceiptsService) private readonly receipts: ReceiptsService) {}

  @Get(':id/receipt')
  @RequireScope('transactions:read')
  @Operation({
    summary: "Download a payment's receipt as PDF",
    description:
      "The receipt of a succeeded payment (`application/pdf`): its number (`RCPT-0001`, per account and mode, without gaps), the seller, the amount, date and card, the invoice it paid, and what has been refunded. Invoicing issues it moments after `payment.succeeded` (and e-mails it when the account's `receipts.payments` switch is on and an address is known); until then, and for failed payments and refunds, it is 404 `resource_missing`.",
    response: 'Transaction',
    produces: 'application/pdf',
    operationId: 'transactions.receipt',
  })
  async receipt(@Caller() caller: AuthenticatedContext, @Param('id') id: string, @Res() reply: FastifyReply) {
    const row = await this.receipts.forTransaction(
      { account: caller.account, livemode: caller.livemode },
      id,
    );
    return sendPdf(reply, receiptPdfFilename(row), await this.receipts.pdf(row));
  }
}
