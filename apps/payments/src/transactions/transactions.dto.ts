import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { digitsToNumber, IsCurrencyField, IsOmittable, JSONSchema, ListQuery } from '@paygrid/platform';
import { sandboxTestCardDocs } from '../connectors/sandbox-test-cards.doc';
import type { TransactionStatus } from './transaction';

const MAX = 99_999_999_999;

/** `amount[gt]=...` etc., in minor units. */
export class AmountRange {
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(0) @Max(MAX) gt?: number;
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(0) @Max(MAX) gte?: number;
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(0) @Max(MAX) lt?: number;
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(0) @Max(MAX) lte?: number;
}

export class ListTransactionsQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'Only transactions of this merchant.' })
  @IsString()
  @Matches(/^mer_[0-9A-Za-z]{8,64}$/, { message: 'merchant must be a merchant id' })
  merchant?: string;

  @IsOptional() @IsIn(['payment', 'refund']) type?: 'payment' | 'refund';

  @IsOptional() @IsIn(['pending', 'requires_action', 'succeeded', 'failed']) status?: TransactionStatus;

  @IsOptional()
  @JSONSchema({ description: 'Only transactions of this payment link.' })
  @IsString()
  @Matches(/^plink_[0-9A-Za-z]{8,64}$/, { message: 'payment_link must be a payment link id' })
  payment_link?: string;

  @IsOptional()
  @IsCurrencyField('ISO 4217, any case.')
  currency?: string;

  @IsOptional()
  @JSONSchema({
    description: 'Only amounts in this range (minor units): `amount[gt]`, `[gte]`, `[lt]`, `[lte]`.',
  })
  @ValidateNested()
  @Type(() => AmountRange)
  amount?: AmountRange;
}

@JSONSchema({
  examples: [{ amount: 1000, currency: 'USD', card_number: '4242424242424242', save_card: true }],
})
export class TestPaymentDto {
  @JSONSchema({ description: 'Minor units, 1 to 99 999 999 999.' })
  @IsInt({ message: 'amount must be an integer number of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(MAX, { message: `amount must be at most ${MAX}` })
  amount!: number;

  @IsCurrencyField('ISO 4217, any case.')
  currency!: string;

  @JSONSchema({
    description: 'One of the sandbox test cards (docs/api.md §5). Never stored.',
    // The connector's own table, so /docs lists every card the sandbox knows.
    'x-test-cards': sandboxTestCardDocs(),
  })
  @IsString()
  @Matches(/^[0-9 -]{12,23}$/, { message: 'card_number must be a card number' })
  card_number!: string;

  @IsOmittable()
  @JSONSchema({
    description:
      'Also store the card as an on-demand mandate (what a payer ticking "save this card" on a hosted invoice does), for testing charges through mandates.',
  })
  @IsBoolean()
  save_card?: boolean;

  @IsOmittable()
  @JSONSchema({ description: 'The invoicing customer the payment (and the saved card) belongs to.' })
  @IsString()
  @Matches(/^cus_[0-9A-Za-z]{8,64}$/, { message: 'customer must be a customer id' })
  customer?: string;
}
