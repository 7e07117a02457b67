import { ABANDONED_MESSAGE } from '../connector';
import {
  declineCodeOf,
  lookupOfPaymentIntent,
  outcomeOfError,
  outcomeOfOnSessionIntent,
  outcomeOfPaymentIntent,
  outcomeOfRefund,
  outcomeOfSetupIntent,
  saveCardOutcomeOfError,
} from './stripe-outcomes';

describe('Stripe outcomes', () => {
  it('reports success only for a succeeded PaymentIntent', () => {
    expect(outcomeOfPaymentIntent({ id: 'pi_1', status: 'succeeded' })).toEqual({
      status: 'succeeded',
      processor_reference: 'pi_1',
    });
    for (const status of [
      'requires_action',
      'requires_payment_method',
      'requires_confirmation',
      'requires_capture',
      'canceled',
    ]) {
      expect(outcomeOfPaymentIntent({ id: 'pi_1', status }).status).toBe('failed');
    }
    expect(outcomeOfPaymentIntent({ id: 'pi_1', status: 'requires_action' })).toMatchObject({
      code: 'authentication_required',
    });
    expect(() => outcomeOfPaymentIntent({ id: 'pi_1', status: 'processing' })).toThrow(
      /outcome is unknown|did not give/,
    );
  });

  it('sends an on-session payer to next_action, and fails a requires_action without a redirect', () => {
    const next_action = { redirect_to_url: { url: 'https://hooks.stripe.com/3d' } };
    expect(outcomeOfOnSessionIntent({ id: 'pi_1', status: 'requires_action', next_action })).toEqual({
      status: 'requires_action',
      redirect_url: 'https://hooks.stripe.com/3d',
      processor_reference: 'pi_1',
    });
    expect(outcomeOfOnSessionIntent({ id: 'pi_1', status: 'requires_action' })).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
    });
    expect(outcomeOfOnSessionIntent({ id: 'pi_1', status: 'succeeded', next_action })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('a looked-up PaymentIntent: waiting, its outcome, and the kept card of a succeeded one', () => {
    expect(lookupOfPaymentIntent({ id: 'pi_1', status: 'requires_action' })).toEqual({
      status: 'requires_action',
      processor_reference: 'pi_1',
    });
    expect(
      lookupOfPaymentIntent({
        id: 'pi_1',
        status: 'requires_payment_method',
        last_payment_error: { code: 'payment_intent_authentication_failure' },
      }),
    ).toMatchObject({ status: 'failed', code: 'authentication_required' });
    expect(
      lookupOfPaymentIntent({
        id: 'pi_1',
        status: 'succeeded',
        customer: 'cus_1',
        payment_method: { id: 'pm_1' },
        setup_future_usage: 'off_session',
      }),
    ).toEqual({ status: 'succeeded', processor_reference: 'pi_1', credential: 'cus_1|pm_1' });
    expect(lookupOfPaymentIntent({ id: 'pi_1', status: 'succeeded', customer: 'cus_1' })).toEqual({
      status: 'succeeded',
      processor_reference: 'pi_1',
    });
    expect(() => lookupOfPaymentIntent({ id: 'pi_1', status: 'processing' })).toThrow();
  });

  it("maps Stripe's decline codes, the issuer's decline_code first", () => {
    expect(declineCodeOf('card_declined', 'insufficient_funds')).toBe('insufficient_funds');
    expect(declineCodeOf('expired_card')).toBe('expired_card');
    expect(declineCodeOf('incorrect_cvc')).toBe('incorrect_cvc');
    expect(declineCodeOf('card_declined', 'authentication_required')).toBe('authentication_required');
    expect(declineCodeOf('card_declined', 'do_not_honor')).toBe('card_declined');
    expect(declineCodeOf(undefined, undefined)).toBe('card_declined');
  });

  it('treats network errors and 5xx as unknown, other 4xx as failed without a charge', () => {
    expect(() => outcomeOfError({ type: 'StripeConnectionError' }, 'k')).toThrow();
    expect(() => outcomeOfError({ type: 'StripeAPIError', statusCode: 502 }, 'k')).toThrow();
    expect(outcomeOfError({ type: 'StripeAuthenticationError', statusCode: 401 }, 'k')).toMatchObject({
      status: 'failed',
      code: 'processing_error',
      processor_reference: 'k',
    });
    expect(
      outcomeOfError(
        { type: 'StripeCardError', statusCode: 402, code: 'expired_card', payment_intent: { id: 'pi_9' } },
        'k',
      ),
    ).toMatchObject({ status: 'failed', code: 'expired_card', processor_reference: 'pi_9' });
  });

  it('reads a PaymentIntent we canceled for an abandoned challenge as authentication_required', () => {
    const abandoned = { id: 'pi_1', status: 'canceled', cancellation_reason: 'abandoned' };
    expect(lookupOfPaymentIntent(abandoned)).toEqual({
      status: 'failed',
      code: 'authentication_required',
      message: ABANDONED_MESSAGE,
      processor_reference: 'pi_1',
    });
    // Canceled for another reason (by the merchant at Stripe, say): nothing charged either.
    expect(
      lookupOfPaymentIntent({ id: 'pi_1', status: 'canceled', cancellation_reason: 'requested_by_customer' }),
    ).toMatchObject({ status: 'failed', code: 'processing_error' });
  });

  it('keeps a pending refund pending (never succeeded before Stripe says so); failed and canceled fail', () => {
    expect(outcomeOfRefund({ id: 're_1', status: 'succeeded' })).toEqual({
      status: 'succeeded',
      processor_reference: 're_1',
    });
    for (const status of ['pending', 'requires_action']) {
      expect(outcomeOfRefund({ id: 're_1', status })).toEqual({
        status: 'pending',
        processor_reference: 're_1',
      });
    }
    expect(
      outcomeOfRefund({ id: 're_1', status: 'failed', failure_reason: 'expired_or_canceled_card' }),
    ).toEqual({
      status: 'failed',
      code: 'processing_error',
      message: 'The processor did not refund the payment (expired_or_canceled_card).',
      processor_reference: 're_1',
    });
    expect(outcomeOfRefund({ id: 're_1', status: 'canceled' }).status).toBe('failed');
  });

  it('stores a card only for a succeeded SetupIntent; 3-D Secure and no answer are failures to retry', () => {
    expect(outcomeOfSetupIntent({ id: 'seti_1', status: 'succeeded' }, 'cus_1|pm_1')).toEqual({
      status: 'succeeded',
      credential: 'cus_1|pm_1',
      processor_reference: 'seti_1',
    });
    expect(
      outcomeOfSetupIntent(
        { id: 'seti_1', status: 'requires_payment_method', last_setup_error: { code: 'expired_card' } },
        'cus_1|pm_1',
      ),
    ).toMatchObject({ status: 'failed', code: 'expired_card' });
    expect(outcomeOfSetupIntent({ id: 'seti_1', status: 'requires_action' }, 'cus_1|pm_1')).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
    });
    const next_action = { redirect_to_url: { url: 'https://hooks.stripe.com/3d' } };
    // With a return URL (on session) the payer is sent to authenticate; without, it is refused.
    expect(
      outcomeOfSetupIntent({ id: 'seti_1', status: 'requires_action', next_action }, 'cus_1|pm_1', true),
    ).toEqual({
      status: 'requires_action',
      redirect_url: 'https://hooks.stripe.com/3d',
      processor_reference: 'seti_1',
      credential: 'cus_1|pm_1',
    });
    expect(
      outcomeOfSetupIntent({ id: 'seti_1', status: 'requires_action', next_action }, 'cus_1|pm_1'),
    ).toMatchObject({ status: 'failed', code: 'authentication_required' });
    for (const status of ['processing', 'requires_confirmation', 'canceled']) {
      expect(outcomeOfSetupIntent({ id: 'seti_1', status }, 'c')).toMatchObject({ code: 'processing_error' });
    }
    expect(saveCardOutcomeOfError({ type: 'StripeConnectionError' }, 'k')).toMatchObject({
      status: 'failed',
      code: 'processing_error',
      processor_reference: 'k',
    });
    expect(
      saveCardOutcomeOfError({ type: 'StripeCardError', statusCode: 402, code: 'incorrect_cvc' }, 'k'),
    ).toMatchObject({
      code: 'incorrect_cvc',
    });
  });
});
