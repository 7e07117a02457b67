export type Timestamp = `${number}-${number}-${number}T${number}:${number}:${string}Z`;
export interface paths {
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve the business profile
         * @description The seller's identity that invoices, quotes, the checkout page, PDFs and e-mails show. One per account, the same in both modes; every field is null until set.
         */
        get: operations["account.get"];
        put?: never;
        /**
         * Update the business profile
         * @description Replaces the fields given (`null` clears one; `address` and `tax_ids` are replaced as a whole). Tax ids are checked against the format of their type (an `eu_vat` against its country prefix). A change emits `account.updated` with the previous values; finalized invoices keep the seller they were finalized with.
         */
        post: operations["account.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload the logo
         * @description The logo, base64-encoded in `file`: a PNG or JPEG (told by its first bytes) of at most 512 KiB. It is served at `logo_url`, a public URL that changes with the image.
         */
        post: operations["account.uploadLogo"];
        /**
         * Remove the logo
         * @description The pages and documents show the name alone again.
         */
        delete: operations["account.deleteLogo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Newest first. Filters: `email` (exact, case-insensitive), `external_id`, `created[...]`. Archived customers are left out unless `include_archived=true`.
         */
        get: operations["customers.list"];
        put?: never;
        /**
         * Create a customer
         * @description Someone you bill. `currency` (any case in, uppercase out) is the currency the customer is billed in. `external_id`, your own id for the customer, is unique among the account's customers of this mode that are not archived: a second one is 409 `resource_conflict` with `param: external_id`.
         */
        post: operations["customers.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a customer
         * @description The customer (archived ones too, marked `deleted`) with its `billing_summary`, in the customer's `currency`: `total_invoiced` and `invoice_count` over its finalized invoices that are not void, `balance_due` the `amount_due` of its open invoices, `total_paid` its succeeded payments (refunds not deducted).
         */
        get: operations["customers.get"];
        put?: never;
        /**
         * Update a customer
         * @description Changes the details given (`null` is refused: a detail cannot be blanked); `address` is replaced as a whole, `metadata` is merged key by key. `customer.updated` carries the previous values of what changed. An archived customer cannot be updated: 409 `invalid_state_transition`.
         */
        post: operations["customers.update"];
        /**
         * Archive a customer
         * @description Archives (soft-deletes) the customer and answers it with `deleted: true`. It stays readable by id (its billing history too) and in lists with `include_archived=true`, can no longer be updated, and frees its `external_id`. Archiving again changes nothing.
         */
        delete: operations["customers.archive"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}/billing-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's billing history
         * @description One chronological feed of the customer's finalized invoices (dated by finalization, with their current status and `total`), its payments and the refunds of those payments (as learned from the payments service, with their latest status), newest first by `occurred_at`. `created[...]` filters on `occurred_at`.
         */
        get: operations["customers.billingHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}/portal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a customer portal session
         * @description A signed link (`url`) to the customer portal, valid until `expires_at` (an hour unless `expires_in` says otherwise): the customer sees its open and paid invoices (PDF, pay), its subscriptions (cancel at period end and undo it, where the business profile's `portal_subscription_cancel` allows) and its saved cards (replace, remove). Nothing is stored; send the customer to `url`. An archived customer is 409 `invalid_state_transition`.
         */
        post: operations["customers.createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List disputes
         * @description Newest first; filters `status`, `transaction`, `created[...]`.
         */
        get: operations["disputes.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/disputes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a dispute
         * @description The dispute and its state.
         */
        get: operations["disputes.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/disputes/{id}/test-helpers/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a sandbox dispute (test mode only)
         * @description Moves a dispute the sandbox opened (card 4000 0000 0000 0259) to `under_review`, `won` or `lost`, as a processor's webhook would: `dispute.updated` or `dispute.closed`, and a won dispute's amount back in the merchant's balance. A processor's dispute, or a move the states refuse, is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.
         */
        post: operations["disputes.updateSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List estimates and quotes
         * @description Newest first. Filters: `status`, `customer`, `kind`, `created[...]`.
         */
        get: operations["estimates.list"];
        put?: never;
        /**
         * Create an estimate or quote
         * @description A draft estimate (`kind: estimate`, default) or quote (`kind: quote`) for a customer. Lines, discount and totals work as on invoices (discount before tax, tax per line in basis points rounded half-even), computed by the server. `currency` defaults to the customer's. `expires_at` (optional, in the future): a sent estimate not accepted by then becomes `expired`. Emits `estimate.created`. States: `draft` -> `sent` -> `accepted` -> `invoiced`; `sent` -> `declined` | `expired`; `draft` | `sent` -> `canceled`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["estimates.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an estimate or quote
         * @description With its totals, `public_url` (once sent) and `invoice` (once converted).
         */
        get: operations["estimates.get"];
        put?: never;
        /**
         * Update a draft estimate
         * @description Changes what is given: `lines` are replaced as a whole (totals recomputed), `discount: null` removes the discount, `metadata` is merged. Only drafts can change.
         */
        post: operations["estimates.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record that the customer accepted
         * @description sent -> accepted (`decided_via: api`); the customer can also accept on the page. A sent estimate past `expires_at` cannot be accepted. Emits `estimate.accepted`.
         */
        post: operations["estimates.accept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an estimate
         * @description draft | sent -> canceled; the page then shows it as canceled. No event (the catalogue has none).
         */
        post: operations["estimates.cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Convert an accepted estimate into an invoice
         * @description accepted -> invoiced: creates the invoice with the same customer, currency, lines and discount (its `estimate` names this one) in the same transaction, a draft by default; `send: true` also finalizes it and e-mails it to the customer. The estimate answers with `invoice` set. Emits `estimate.invoiced` (and the invoice events).
         */
        post: operations["estimates.convert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record that the customer declined
         * @description sent -> declined (`decided_via: api`). Emits `estimate.declined`.
         */
        post: operations["estimates.decline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an estimate or quote as PDF
         * @description The document (`application/pdf`) titled Estimate or Quote: seller and customer, number, dates (valid until), lines, tax, totals and, while sent, the link to the page. A draft renders without a number. The same document is on the public page and attached to the e-mail.
         */
        get: operations["estimates.pdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an estimate or quote
         * @description draft -> sent (or sends a sent one again). The first send takes the gapless `number` of the account, mode and kind (`EST-0001`, `Q-0001`) and publishes the customer's page (`public_url`). E-mails the customer a link to the page with the PDF attached; the mail leaves after the transaction commits, once per send. Needs lines, a customer e-mail address and an `expires_at` still in the future (else 400). Emits `estimate.sent`.
         */
        post: operations["estimates.send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Newest first; kept for 30 days at least.
         */
        get: operations["events.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an event
         * @description Any event of the last 30 days at least, exactly as it was delivered to webhook endpoints.
         */
        get: operations["events.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream events
         * @description The account's events as they are recorded, as server-sent events (`text/event-stream`): one `id: <event id>`, `event: <type>`, `data: <the event as JSON>` frame per event, in log order, each once; `: keepalive` comments in quiet times. Reconnect with `Last-Event-ID` to resume after the last event received, without loss or repeat. A connection ends after 10 minutes; reconnect. Used by `paygrid listen`.
         */
        get: operations["events.stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices
         * @description Newest first. Filters: `status`, `customer`, `subscription`, `created[...]`, `due_date[...]`. Readable with the payments grouping too.
         */
        get: operations["invoices.list"];
        put?: never;
        /**
         * Create (and send) an invoice
         * @description Creates the invoice and, unless `send: false`, finalizes it (gapless `number`, seller and customer snapshots, `due_date`) and collects it in the same transaction: `send_invoice` e-mails the customer a link to the hosted page with the PDF; `charge_automatically` charges the customer's `default_mandate` through the payments service (or e-mails the page when there is none). Totals are computed by the server: discount before tax, tax per line in basis points rounded half-even. `currency` defaults to the customer's. Sending needs a customer e-mail address (else 400 `parameter_invalid`, `param: customer`, and nothing is created). Use an `Idempotency-Key`: the whole call is one transaction.
         */
        post: operations["invoices.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an invoice
         * @description Readable with the payments grouping too.
         */
        get: operations["invoices.get"];
        put?: never;
        /**
         * Update a draft invoice
         * @description Changes the fields given; `lines` are replaced as a whole, `discount: null` removes the discount, `metadata` is merged. Totals are recomputed. Only drafts: otherwise 409 `invalid_state_transition`.
         */
        post: operations["invoices.update"];
        /**
         * Delete a draft invoice
         * @description Only drafts (they have no number); a finalized invoice is voided instead. States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        delete: operations["invoices.remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/finalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finalize a draft invoice
         * @description draft -> open: assigns the next gapless `number` of the account and mode, snapshots seller and customer, sets `due_date` (send_invoice: `days_until_due`, default 30). Sends nothing. A zero invoice becomes `paid`. States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["invoices.finalize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/mark-uncollectible": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark an invoice uncollectible
         * @description open -> uncollectible; it can still be paid or voided. States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["invoices.markUncollectible"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay an invoice
         * @description `paid_out_of_band: true` marks it paid now. Otherwise charges the customer's `default_mandate` through the payments service: the answer is the invoice still `open`; it becomes `paid` (invoice.paid) or stays open with `last_payment_error` (invoice.payment_failed) when the payment's outcome arrives. While a charge is pending another is 409 `invalid_state_transition`; a customer without a mandate is 400 `parameter_invalid` (`param: customer`). States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["invoices.pay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an invoice as PDF
         * @description The invoice document (`application/pdf`): the seller's logo, seller and customer, number, dates, lines, tax, totals, amount due and the payment link. A draft renders without a number. The same document is at the public `pdf_url` and attached to the e-mail. `format=facturx`: the finalized invoice as a Factur-X / ZUGFeRD PDF/A-3b (profile EN 16931) with its CII XML embedded as `factur-x.xml`; a draft or an invoice missing what EN 16931 requires is 409 `invoice_incomplete`, as for `/ubl`.
         */
        get: operations["invoices.pdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an invoice
         * @description E-mails the customer a link to the hosted invoice page with the PDF attached (a draft is finalized first). Each call is one e-mail, sent after commit and never twice. States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["invoices.send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/ubl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an invoice as UBL (EN 16931)
         * @description The finalized invoice as a UBL 2.1 Invoice (`application/xml`) in the PEPPOL BIS Billing 3.0 shape, conformant to EN 16931: the seller and customer as the invoice keeps them (the business profile's VAT number, addresses, e-mail addresses as electronic addresses), one VAT breakdown per category and rate (the lines' `tax_category`: S, Z, E, AE, K, G, with their exemption reasons; an intra-community supply is delivered on the issue date to the customer's country), the discount as a document allowance per category and rate. A draft, or an invoice whose seller or customer lacks what EN 16931 requires (country, electronic address, the seller's VAT number for taxed lines), is 409 `invoice_incomplete` naming what is missing.
         */
        get: operations["invoices.ubl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void an invoice
         * @description open or uncollectible -> void; the number stays used. States: `draft` -> `open` (finalize) -> `paid` | `void` | `uncollectible`; `uncollectible` -> `paid` | `void`. An action the state does not allow is 409 `invalid_state_transition`.
         */
        post: operations["invoices.void"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mandates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List mandates
         * @description Newest first. A mandate is a card the payer allowed to be charged again: `recurring` (created by the checkout of a recurring payment link, charged every cycle) or `on_demand` (saved while paying an invoice, charged per invoice).
         */
        get: operations["mandates.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mandates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a mandate
         * @description The mandate, its card (brand, last4, expiry), schedule and `next_charge_at`.
         */
        get: operations["mandates.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mandates/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a mandate
         * @description Stops every future charge (`mandate.canceled`). Canceling a canceled mandate answers it unchanged; a `failed` mandate cannot be canceled (409 `invalid_state_transition`).
         */
        post: operations["mandates.cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mandates/{id}/test-helpers/charge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a sandbox mandate's next charge now (test mode only)
         * @description Makes a recurring mandate's next scheduled attempt (its next cycle, or the retry of a failed one) due now and runs it through the scheduler's own charge: `payment.succeeded` or `payment.failed`, and the mandate's schedule moves on as on the attempt's date. With card 4000 0000 0000 0341 (later charges declined) the third call fails the mandate: `mandate.failed`. Answers the mandate afterwards. A mandate that is not active or has no schedule (`on_demand`), or whose previous charge is still in progress, is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.
         */
        post: operations["mandates.chargeSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List merchants
         * @description Newest first.
         */
        get: operations["merchants.list"];
        put?: never;
        /**
         * Create a merchant
         * @description Onboards a business. Once every requirement is in, onboarding moves to `in_review`; the sandbox then decides at once (an `email` of `reject@...` is rejected), live mode waits for the operator.
         */
        post: operations["merchants.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a merchant
         * @description The merchant with its onboarding status, the requirements still due and its capabilities.
         */
        get: operations["merchants.get"];
        put?: never;
        /**
         * Update a merchant
         * @description Changes the details given; `metadata` is merged key by key. Completing the requirements moves onboarding on.
         */
        post: operations["merchants.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment links
         * @description Newest first.
         */
        get: operations["paymentLinks.list"];
        put?: never;
        /**
         * Create a payment link
         * @description A shareable `url` of a hosted checkout page. Give `amount` + `currency`, or `line_items` (at most 20) + `currency`: the server computes `amount_total`. One-time links complete after their first payment unless `max_completions` says otherwise.
         */
        post: operations["paymentLinks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a payment link
         * @description The link, its status and how many payments completed it so far.
         */
        get: operations["paymentLinks.get"];
        put?: never;
        /**
         * Update a payment link
         * @description Changes `description` (and merges `metadata` key by key). `active: false` deactivates the link; `active: true` reactivates it, unless it is completed or expired (409 `invalid_state_transition`).
         */
        post: operations["paymentLinks.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/processor-connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor connections
         * @description Newest first.
         */
        get: operations["processorConnections.list"];
        put?: never;
        /**
         * Connect a payment processor
         * @description Stores the processor's credentials for the key's mode, sealed at rest and never returned (only `credentials.secret_key_last4`). The new connection is the one in use: a previous connection of the mode that is not disabled is disabled in the same step. Live payments of the account go to the active live connection. Nothing is sent to the processor: `POST /v1/processor-connections/{id}/verify` checks the credentials.
         */
        post: operations["processorConnections.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/processor-connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a processor connection
         * @description The connection without its credentials: the key's last 4, the processor's account id once verified.
         */
        get: operations["processorConnections.get"];
        put?: never;
        /**
         * Update a processor connection
         * @description Changes the description, or rotates the credentials in place (sealed again; the verification starts again as `unverified`, and a `failing` connection is `active` again). A disabled connection cannot take new credentials (409 `invalid_state_transition`).
         */
        post: operations["processorConnections.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/processor-connections/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a processor connection
         * @description From now on no payment goes to it; live payments of the account are refused (409 `processor_not_configured`) until another connection is created. Disabling a disabled connection answers it unchanged.
         */
        post: operations["processorConnections.disable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/processor-connections/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a processor connection
         * @description Calls the processor with the stored credentials (Stripe: `GET /v1/account`) and records the answer in `verification`: `succeeded` with the processor's account id in `processor_account`, or `failed` with why. A refused key is an answer, not an error.
         */
        post: operations["processorConnections.verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List refunds
         * @description Newest first.
         */
        get: operations["refunds.list"];
        put?: never;
        /**
         * Refund a payment
         * @description Refunds all or part of a succeeded payment; several refunds per payment are allowed. The sum of refunds that have not failed never exceeds the payment, even under concurrent requests (422 `refund_exceeds_remaining`). The refund is also a `refund` transaction.
         */
        post: operations["refunds.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a refund
         * @description The refund and its status.
         */
        get: operations["refunds.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/request-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List recent API requests
         * @description The account's API requests of the last 24 hours in this mode, newest first: method, path (without its query string), status, latency and request id. Never a body, a key or card data.
         */
        get: operations["requestLogs.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/request-logs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream API requests
         * @description The account's API requests in this mode as they are answered, as server-sent events (`text/event-stream`): one `id: <position>`, `event: request`, `data: <the RequestLog as JSON>` frame per request, in order; `: keepalive` comments in quiet times. Reconnect with `Last-Event-ID` to resume after the last frame. A connection ends after 10 minutes. Used by `paygrid logs tail`.
         */
        get: operations["requestLogs.stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions
         * @description Newest first. Filters: `status`, `customer`, `test_clock`, `created[...]`, `current_period_end[...]`.
         */
        get: operations["subscriptions.list"];
        put?: never;
        /**
         * Create a subscription
         * @description Bills `customer` every period for `items`. Every item has the same `currency`, `interval` and `interval_count` (one billing cycle per subscription, as Stripe). Periods are computed from `billing_cycle_anchor` (default: the trial end, else now) with month-end clamping in `time_zone` (default UTC). With `trial_end` or `trial_period_days` it starts `trialing` (no invoice during the trial; `subscription.trial_will_end` three days before the end); a trial ending inside a period bills the rest of that period pro rata. Without a trial the first invoice is created, finalized and collected at once: `charge_automatically` starts `incomplete` until it is paid, `send_invoice` starts `active`. A customer on a test clock puts the subscription on that clock.
         */
        post: operations["subscriptions.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a subscription
         * @description The subscription.
         */
        get: operations["subscriptions.get"];
        put?: never;
        /**
         * Update a subscription
         * @description Replaces `items` (same currency and cycle) and/or changes settings. A price or quantity change inside a billed period is prorated by seconds as of `proration_date` (default now): `create_prorations` (default) adds the credit for unused time and the charge for the remaining time to the next invoice, `always_invoice` invoices them now, `none` does not prorate. Credits never become negative lines: they are deducted as a discount, the rest carried in `pending_credit`. `POST /:id/preview` with the same body shows exactly what this bills.
         */
        post: operations["subscriptions.update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription
         * @description `at: now` (default) cancels at once (`subscription.canceled`; nothing is refunded or invoiced); `at: period_end` sets `cancel_at_period_end` and the engine cancels it when the current period (or trial) ends.
         */
        post: operations["subscriptions.cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a subscription
         * @description active -> paused (`subscription.paused`): periods keep passing but are not invoiced.
         */
        post: operations["subscriptions.pause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a subscription change
         * @description The same body as `POST /v1/subscriptions/:id`, nothing written: the proration lines, the invoice `always_invoice` would create now, and the next renewal invoice. An empty body previews the upcoming invoice. Pass the answer's `proration_date` to the change to bill exactly this.
         */
        post: operations["subscriptions.preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a subscription
         * @description paused -> active (`subscription.resumed`): billing starts again at the next period start.
         */
        post: operations["subscriptions.resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List test clocks
         * @description Newest first; deleted clocks are left out. Live keys see none.
         */
        get: operations["testClocks.list"];
        put?: never;
        /**
         * Create a test clock
         * @description Sandbox only: a live key gets 400 `test_mode_only`. Customers created with `test_clock` live at its `frozen_time`, and so do their subscriptions and invoices.
         */
        post: operations["testClocks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a test clock
         * @description The clock, `ready` or `advancing`.
         */
        get: operations["testClocks.get"];
        put?: never;
        post?: never;
        /**
         * Delete a test clock
         * @description Deletes the clock and cancels its customers' subscriptions (no events). 409 while it is advancing.
         */
        delete: operations["testClocks.remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clocks/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance a test clock
         * @description Moves the clock forward to `frozen_time` (after the current one; else 400) and runs, in time order, everything due for its customers up to then: trial_will_end, trial ends, renewals (invoice created, finalized, charged or sent), dunning retries at +1, +3, +5, +7 days, past_due and the end state, overdue invoices, with their events. Between steps it waits (bounded, 15 s) for the payment outcomes the charges cause. Answers once the clock is `ready` again. A second advance while one runs: 409 `invalid_state_transition`. `Idempotency-Key` is not honoured here: each step commits on its own, so that the charges it requests go out and their outcomes come back while it waits, and so that a second advance sees this one running; a retry of an advance that completed is 400, its `frozen_time` being no longer after the clock time.
         */
        post: operations["testClocks.advance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transactions
         * @description Payments and refunds, newest first. Filters: `merchant`, `type`, `status`, `payment_link`, `currency`, `amount[gt|gte|lt|lte]`, `created[...]`.
         */
        get: operations["transactions.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a transaction
         * @description One money movement, with `amount_refunded` and `refundable_amount` for payments.
         */
        get: operations["transactions.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a payment's receipt as PDF
         * @description The receipt of a succeeded payment (`application/pdf`): its number (`RCPT-0001`, per account and mode, without gaps), the seller, the amount, date and card, the invoice it paid, and what has been refunded. Invoicing issues it moments after `payment.succeeded` (and e-mails it when the account's `receipts.payments` switch is on and an address is known); until then, and for failed payments and refunds, it is 404 `resource_missing`.
         */
        get: operations["transactions.receipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/test-helpers/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a test payment (test mode only)
         * @description Charges one of the sandbox test cards (docs/api.md §5) for the amount given and answers the resulting `payment` transaction, succeeded or failed. With `save_card: true` a succeeded payment also stores the card as an on-demand mandate (`mandate` on the transaction; `mandate.created`), optionally for `customer`, which must be a customer of the account and mode (404 `resource_missing` otherwise; one created a moment ago is waited on up to 5 s, docs/api.md Part 2). Live keys get 404. Idempotency-Key is not honoured here.
         */
        post: operations["transactions.testPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Newest first.
         */
        get: operations["webhooks.list"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Registers a URL for the given event types (of the account's groupings, or `["*"]`). Live endpoints must be `https` and resolve only to public addresses. The answer carries the signing `secret`, shown only here and on rotation.
         */
        post: operations["webhooks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a webhook endpoint
         * @description The endpoint without its secret.
         */
        get: operations["webhooks.get"];
        put?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the URL, event types or description; `disabled: true|false` disables or enables it.
         */
        post: operations["webhooks.update"];
        /**
         * Delete a webhook endpoint
         * @description Stops every delivery to it, including pending retries.
         */
        delete: operations["webhooks.remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook endpoint's deliveries
         * @description Newest first, each with every attempt (time, status, latency, first 1 KiB of the answer).
         */
        get: operations["webhooks.deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description Makes the delivery due now, even if it failed for good.
         */
        post: operations["webhooks.retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook endpoint's secret
         * @description Returns the new `secret`. For 24 hours deliveries carry two signatures, one with each secret.
         */
        post: operations["webhooks.rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook_endpoint.test` event to the endpoint and returns its delivery.
         */
        post: operations["webhooks.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test-helpers/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a sandbox endpoint as failing (test mode only)
         * @description Disables an enabled test-mode endpoint now, as the delivery worker disables one after 5 days in which every delivery to it failed: `status: disabled`, `disabled_reason` set, and the `webhook_endpoint.disabled` event. `POST /v1/webhooks/:id` with `disabled: false` enables it again. An endpoint that is not enabled is 409 `invalid_state_transition`. Live keys get 404 `resource_missing`.
         */
        post: operations["webhooks.disableSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "account.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `account.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `account.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.account.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `customer.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `customer.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.customer.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `customer.deleted` event
         * @description Sent, signed, to every enabled endpoint subscribed to `customer.deleted` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.customer.deleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `customer.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `customer.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.customer.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dispute.closed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `dispute.closed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `dispute.closed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.dispute.closed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dispute.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `dispute.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `dispute.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.dispute.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dispute.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `dispute.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `dispute.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.dispute.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.accepted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.accepted` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.accepted` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.accepted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.declined` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.declined` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.declined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.expired` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.expired` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.invoiced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.invoiced` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.invoiced` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.invoiced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "estimate.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `estimate.sent` event
         * @description Sent, signed, to every enabled endpoint subscribed to `estimate.sent` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.estimate.sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.finalized": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.finalized` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.finalized` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.finalized"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.marked_uncollectible": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.marked_uncollectible` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.marked_uncollectible` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.marked_uncollectible"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.overdue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.overdue` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.overdue` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.overdue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.paid` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.paid` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.payment_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.payment_failed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.payment_failed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.payment_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.sent` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.sent` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.voided": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `invoice.voided` event
         * @description Sent, signed, to every enabled endpoint subscribed to `invoice.voided` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.invoice.voided"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `mandate.canceled` event
         * @description Sent, signed, to every enabled endpoint subscribed to `mandate.canceled` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.mandate.canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `mandate.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `mandate.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.mandate.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `mandate.failed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `mandate.failed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.mandate.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `mandate.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `mandate.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.mandate.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "merchant.onboarding.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `merchant.onboarding.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `merchant.onboarding.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.merchant.onboarding.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment.failed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment.failed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.requires_action": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment.requires_action` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment.requires_action` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment.requires_action"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment.succeeded` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment.succeeded` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment.succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment_link.completed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment_link.completed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment_link.completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment_link.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment_link.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment_link.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment_link.expired` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment_link.expired` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment_link.expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `payment_link.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `payment_link.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.payment_link.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `refund.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `refund.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.refund.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `refund.failed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `refund.failed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.refund.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `refund.succeeded` event
         * @description Sent, signed, to every enabled endpoint subscribed to `refund.succeeded` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.refund.succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.canceled` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.canceled` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.created` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.created` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.past_due": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.past_due` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.past_due` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.past_due"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.paused` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.paused` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.renewed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.renewed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.renewed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.renewed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.resumed` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.resumed` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.resumed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.trial_will_end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.trial_will_end` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.trial_will_end` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.trial_will_end"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `subscription.updated` event
         * @description Sent, signed, to every enabled endpoint subscribed to `subscription.updated` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.subscription.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook_endpoint.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `webhook_endpoint.disabled` event
         * @description Sent, signed, to every enabled endpoint subscribed to `webhook_endpoint.disabled` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.webhook_endpoint.disabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook_endpoint.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The `webhook_endpoint.test` event
         * @description Sent, signed, to every enabled endpoint subscribed to `webhook_endpoint.test` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.
         */
        post: operations["webhooks.webhook_endpoint.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description The seller's identity on every page, document and e-mail the account's customers receive. */
        Account: {
            /** @description The account. */
            id: string;
            /** @constant */
            object: "account";
            /** @description The registered name, on invoices. */
            legal_name: string | null;
            /** @description The name customers know (pages, e-mail sender, invoices). */
            trading_name: string | null;
            address: {
                /** @description Line 1. */
                line1: string | null;
                /** @description Line 2. */
                line2: string | null;
                /** @description City. */
                city: string | null;
                /** @description Postal code. */
                postal_code: string | null;
                /** @description State or region. */
                state: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country: string | null;
            } | null;
            tax_ids: {
                /** @enum {string} */
                type: "eu_vat" | "gb_vat" | "ch_vat" | "no_vat" | "us_ein" | "au_abn";
                /** @description Normalised: upper case, without spaces or dots. */
                value: string;
            }[];
            /**
             * Format: email
             * @description Reply-To of every e-mail.
             */
            support_email: string | null;
            /** @description Shown on the pages and documents. */
            support_phone: string | null;
            /** Format: uri */
            website: string | null;
            /** @description #rrggbb. */
            brand_color: string | null;
            /** @description What card statements show (5-22 characters). */
            statement_descriptor: string | null;
            /** @description Printed at the foot of every invoice page. */
            invoice_footer: string | null;
            /** @description Default days until an invoice is due. */
            payment_terms_days: number | null;
            /** @description Which receipts are e-mailed to your customers (docs/adr/0012). */
            receipts: {
                /** @description E-mail a receipt when a payment succeeds. */
                payments: boolean;
                /** @description E-mail a refund notice when a refund succeeds. */
                refunds: boolean;
            };
            /** @description Whether customers may cancel subscriptions at period end in the customer portal. */
            portal_subscription_cancel: boolean;
            /**
             * Format: uri
             * @description Public; changes with the image.
             */
            logo_url: string | null;
            /** @description Grows with every change. */
            version: number;
            /**
             * Format: date-time
             * @description Last change (null: never set).
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp | null;
        };
        AccountAddress: {
            line1?: string | null;
            line2?: string | null;
            city?: string | null;
            postal_code?: string | null;
            state?: string | null;
            /** @description ISO 3166-1 alpha-2, any case. */
            country?: string | null;
        };
        /** @description Attributes of a Account before a change. */
        AccountPreviousAttributes: {
            /** @description The account. */
            id?: string;
            /** @constant */
            object?: "account";
            /** @description The registered name, on invoices. */
            legal_name?: string | null;
            /** @description The name customers know (pages, e-mail sender, invoices). */
            trading_name?: string | null;
            address?: {
                /** @description Line 1. */
                line1?: string | null;
                /** @description Line 2. */
                line2?: string | null;
                /** @description City. */
                city?: string | null;
                /** @description Postal code. */
                postal_code?: string | null;
                /** @description State or region. */
                state?: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country?: string | null;
            } | null;
            tax_ids?: {
                /** @enum {string} */
                type?: "eu_vat" | "gb_vat" | "ch_vat" | "no_vat" | "us_ein" | "au_abn";
                /** @description Normalised: upper case, without spaces or dots. */
                value?: string;
            }[];
            /**
             * Format: email
             * @description Reply-To of every e-mail.
             */
            support_email?: string | null;
            /** @description Shown on the pages and documents. */
            support_phone?: string | null;
            /** Format: uri */
            website?: string | null;
            /** @description #rrggbb. */
            brand_color?: string | null;
            /** @description What card statements show (5-22 characters). */
            statement_descriptor?: string | null;
            /** @description Printed at the foot of every invoice page. */
            invoice_footer?: string | null;
            /** @description Default days until an invoice is due. */
            payment_terms_days?: number | null;
            /** @description Which receipts are e-mailed to your customers (docs/adr/0012). */
            receipts?: {
                /** @description E-mail a receipt when a payment succeeds. */
                payments?: boolean;
                /** @description E-mail a refund notice when a refund succeeds. */
                refunds?: boolean;
            };
            /** @description Whether customers may cancel subscriptions at period end in the customer portal. */
            portal_subscription_cancel?: boolean;
            /**
             * Format: uri
             * @description Public; changes with the image.
             */
            logo_url?: string | null;
            /** @description Grows with every change. */
            version?: number;
            /**
             * Format: date-time
             * @description Last change (null: never set).
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp | null;
        };
        /** @description `account.updated` (docs/api.md §7). */
        AccountUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "account.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Account after the change, as its own endpoint returns it. */
                object: components["schemas"]["Account"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["AccountPreviousAttributes"];
            };
        };
        /**
         * @example {
         *       "line1": "1 High Street",
         *       "city": "London",
         *       "postal_code": "N1 9GU",
         *       "country": "GB"
         *     }
         */
        Address: {
            line1?: string | null;
            line2?: string | null;
            city?: string | null;
            postal_code?: string | null;
            state?: string | null;
            /** @description ISO 3166-1 alpha-2, any case. */
            country?: string | null;
        };
        /**
         * @example {
         *       "frozen_time": "2028-03-01T00:00:00Z"
         *     }
         */
        AdvanceTestClock: {
            /** @description The new time: after the clock's current one. */
            frozen_time: string | number;
        };
        AfterCompletion: {
            /** Format: uri */
            redirect_url: string;
        };
        AmountRange: {
            gt?: number;
            gte?: number;
            lt?: number;
            lte?: number;
        };
        /** @description A page of a customer's billing history: invoices, payments and refunds, newest first. */
        BillingHistory: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: {
                /** @constant */
                object: "billing_history_item";
                /**
                 * @description A payment, a refund of one, or a finalized invoice (dated by its finalization).
                 * @enum {string}
                 */
                type: "payment" | "refund" | "invoice";
                /**
                 * @description The id of the payment (`txn_`), refund (`re_`) or invoice (`inv_`).
                 * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
                 */
                id: string;
                /** @description The latest status, e.g. `succeeded`, or the invoice's `open`, `paid`... */
                status: string;
                /** @description Minor units (an invoice: its `total`). */
                amount: number | null;
                /** @description ISO 4217. */
                currency: string | null;
                /**
                 * Format: date-time
                 * @description When it happened (its first event).
                 * @example 2026-01-15T12:00:00.000Z
                 */
                occurred_at: Timestamp;
                /**
                 * Format: date-time
                 * @description Its latest event.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                updated_at: Timestamp;
            }[];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /** @description The list endpoint. */
            url: string;
        };
        /**
         * @example {
         *       "at": "period_end"
         *     }
         */
        CancelSubscription: {
            /**
             * @description `now` (default) ends it at once; `period_end` at the end of the current period.
             * @enum {string|null}
             */
            at?: "now" | "period_end" | null;
        };
        /**
         * @example {}
         * @example {
         *       "send": true
         *     }
         * @example {
         *       "send": true,
         *       "days_until_due": 14
         *     }
         */
        ConvertEstimate: {
            /** @description Finalize the invoice and e-mail it to the customer at once (default `false`: a draft invoice). */
            send?: boolean;
            /** @description The invoice is due this many days after finalization (default 30). */
            days_until_due?: number;
        };
        /**
         * @example {
         *       "name": "Jenny Rosen",
         *       "email": "jenny@example.test",
         *       "currency": "GBP",
         *       "address": {
         *         "line1": "1 High Street",
         *         "city": "London",
         *         "postal_code": "N1 9GU",
         *         "country": "GB"
         *       }
         *     }
         * @example {
         *       "name": "Acme Ltd",
         *       "email": "billing@acme.test",
         *       "external_id": "crm-6735",
         *       "metadata": {
         *         "tier": "gold"
         *       }
         *     }
         */
        CreateCustomer: {
            /** @description Test mode: the test clock (`clock_...`) the customer, its subscriptions and invoices live on. */
            test_clock?: string;
            name?: string;
            /** Format: email */
            email?: string;
            phone?: string;
            address?: components["schemas"]["Address"];
            tax_id?: string;
            /**
             * Format: currency
             * @description ISO 4217, any case: the currency the customer is billed in.
             */
            currency?: string;
            /** @description Your id for the customer; unique among the account's customers of this mode. */
            external_id?: string;
            /**
             * @description BCP 47 language tags, most preferred first (e.g. `["de-AT", "en"]`): pages, e-mails and PDFs use the first supported language (en, de, fr, es, pl), English otherwise.
             * @example [
             *       "de-AT",
             *       "en"
             *     ]
             */
            preferred_locales?: string[];
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "kind": "quote",
         *       "customer": "cus_4fQk2nT8bW1xZc9LmP0aRs7e",
         *       "lines": [
         *         {
         *           "description": "Website redesign",
         *           "quantity": 1,
         *           "unit_amount": 450000,
         *           "tax_rate_bps": 2000
         *         }
         *       ],
         *       "expires_at": "2026-12-31T23:59:59Z"
         *     }
         */
        CreateEstimate: {
            /** @description The customer the estimate is for (`cus_...`). */
            customer: string;
            /**
             * @description `estimate` (default) or `quote`: same flow, own numbering (`EST-0001`, `Q-0001`).
             * @enum {string}
             */
            kind?: "estimate" | "quote";
            /** @description At most 250 lines; replaced as a whole on update. */
            lines?: components["schemas"]["InvoiceLine"][];
            /** @description Taken off before tax, as on invoices; `null` removes it. */
            discount?: components["schemas"]["Discount"] | null;
            /**
             * Format: currency
             * @description ISO 4217, any case. Default: the customer's currency.
             */
            currency?: string;
            /** @description RFC 3339, in the future: a sent estimate not accepted by then becomes `expired`. `null` (default): it does not expire. */
            expires_at?: (string) | null;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "customer": "cus_4fQk2nT8bW1xZc9LmP0aRs7e",
         *       "lines": [
         *         {
         *           "description": "Consulting (hours)",
         *           "quantity": 2,
         *           "unit_amount": 1500,
         *           "tax_rate_bps": 2000
         *         },
         *         {
         *           "description": "Books",
         *           "quantity": 3,
         *           "unit_amount": 333,
         *           "tax_rate_bps": 500
         *         }
         *       ],
         *       "discount": {
         *         "percent_bps": 1000
         *       },
         *       "send": false
         *     }
         */
        CreateInvoice: {
            /** @description The customer billed (`cus_...`). */
            customer: string;
            /** @description Finalize and send at once (default `true`); `false` keeps a draft. */
            send?: boolean;
            /** @description At most 250 lines; replaced as a whole on update. */
            lines?: components["schemas"]["InvoiceLine"][];
            /** @description Taken off before tax; `null` removes it. */
            discount?: components["schemas"]["Discount"] | null;
            /**
             * Format: currency
             * @description ISO 4217, any case. Default: the customer's currency.
             */
            currency?: string;
            /** @enum {string} */
            collection_method?: "send_invoice" | "charge_automatically";
            /** @description send_invoice: due this many days after finalization (default 30). */
            days_until_due?: number;
            /** @description RFC 3339; instead of `days_until_due`. Must be in the future. */
            due_date?: string;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "business_name": "Acme Ltd",
         *       "email": "ops@acme.test",
         *       "country": "GB",
         *       "default_currency": "GBP",
         *       "business_type": "company"
         *     }
         */
        CreateMerchant: {
            business_name?: string;
            /** Format: email */
            email?: string;
            /** @description ISO 3166-1 alpha-2, any case. */
            country?: string;
            /**
             * Format: currency
             * @description ISO 4217, any case.
             */
            default_currency?: string;
            /** @enum {string} */
            business_type?: "individual" | "company" | "non_profit" | "government_entity";
            /** Format: uri */
            website?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "amount": 2500,
         *       "currency": "USD",
         *       "description": "Annual plan",
         *       "client_reference_id": "order_6735"
         *     }
         */
        CreatePaymentLink: {
            /** @description The merchant paid; default: the account's. */
            merchant?: string;
            /** @enum {string} */
            type?: "one_time" | "recurring";
            /** @description Minor units, 1 to 99 999 999 999; give either this or `line_items`. */
            amount?: number;
            /**
             * Format: currency
             * @description ISO 4217, any case.
             */
            currency: string;
            /** @description At most 20; the total is computed by the server. */
            line_items?: components["schemas"]["LineItem"][];
            recurring?: components["schemas"]["Recurring"];
            description?: string;
            max_completions?: number;
            /** @description RFC 3339; must be in the future. */
            expires_at?: string;
            after_completion?: components["schemas"]["AfterCompletion"];
            client_reference_id?: string;
            metadata?: components["schemas"]["Metadata"];
        } & (unknown | unknown);
        /**
         * @example {
         *       "return_url": "https://shop.example/account"
         *     }
         * @example {}
         */
        CreatePortalSession: {
            /**
             * Format: uri
             * @description Where the portal's "Return to ..." link leads (http or https).
             */
            return_url?: string | null;
            /** @description The portal's language (a BCP 47 tag); default: the customer's `preferred_locales`. */
            locale?: string | null;
            /** @description Seconds the link stays valid: 300 to 604800 (7 days); default 3600. */
            expires_in?: number | null;
        };
        /**
         * @example {
         *       "processor": "stripe",
         *       "credentials": {
         *         "secret_key": "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
         *         "webhook_signing_secret": "whsec_4eC39HqLyjWDarjtT1zdp7dc"
         *       }
         *     }
         */
        CreateProcessorConnection: {
            /** @enum {string} */
            processor: "stripe";
            /** @description Sealed at rest (AES-256-GCM) and never returned. */
            credentials: components["schemas"]["ProcessorCredentials"];
            description?: string;
        };
        /**
         * @example {
         *       "transaction": "txn_4fQk2nT8bW1xZc9LmP0aRs7e",
         *       "amount": 500,
         *       "reason": "requested_by_customer"
         *     }
         */
        CreateRefund: {
            /** @description The succeeded payment to refund. */
            transaction: string;
            /** @description Minor units; default: all that remains refundable. */
            amount?: number;
            /** @enum {string} */
            reason?: "duplicate" | "fraudulent" | "requested_by_customer";
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "customer": "cus_4fQk2nT8bW1xZc9LmP0aRs7e",
         *       "items": [
         *         {
         *           "description": "Pro plan",
         *           "unit_amount": 1000,
         *           "currency": "GBP",
         *           "quantity": 1,
         *           "interval": "month",
         *           "interval_count": 1
         *         }
         *       ],
         *       "collection_method": "send_invoice"
         *     }
         * @example {
         *       "customer": "cus_4fQk2nT8bW1xZc9LmP0aRs7e",
         *       "items": [
         *         {
         *           "description": "Seat",
         *           "unit_amount": 900,
         *           "currency": "EUR",
         *           "quantity": 5,
         *           "interval": "year",
         *           "interval_count": 1
         *         }
         *       ],
         *       "billing_cycle_anchor": "2027-01-31T00:00:00Z",
         *       "trial_period_days": 14,
         *       "time_zone": "Europe/Paris",
         *       "dunning_end_state": "unpaid"
         *     }
         */
        CreateSubscription: {
            customer: string;
            items: components["schemas"]["SubscriptionItem"][];
            /** @description Periods are computed from this instant (default: the trial end, else now). */
            billing_cycle_anchor?: (string | number) | null;
            /** @description End of the trial (after now). Not with trial_period_days. */
            trial_end?: (string | number) | null;
            trial_period_days?: number | null;
            /** @enum {string|null} */
            collection_method?: "charge_automatically" | "send_invoice" | null;
            days_until_due?: number | null;
            /** @description IANA time zone the periods are computed in (default UTC). */
            time_zone?: string | null;
            /**
             * @description What the subscription becomes when the last dunning retry fails (default `canceled`).
             * @enum {string|null}
             */
            dunning_end_state?: "unpaid" | "canceled" | null;
            /**
             * @description A billing_cycle_anchor after the start bills the stub pro rata (`create_prorations`, default) or not at all (`none`).
             * @enum {string|null}
             */
            proration_behavior?: "create_prorations" | "none" | null;
            metadata?: components["schemas"]["Metadata"] | null;
        };
        /**
         * @example {
         *       "frozen_time": "2028-01-31T00:00:00Z",
         *       "name": "Annual plan renewal"
         *     }
         */
        CreateTestClock: {
            /** @description The initial time (RFC 3339 or unix seconds). */
            frozen_time: string | number;
            name?: string;
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/paygrid",
         *       "enabled_events": [
         *         "merchant.onboarding.updated"
         *       ]
         *     }
         */
        CreateWebhookEndpoint: {
            /** @description https URL resolving to public addresses (live mode). */
            url: string;
            /** @description Event types of the account's groupings, or `["*"]` for all of them. */
            enabled_events: string[] | [
                "*"
            ] | unknown;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /** @description Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`. */
        Customer: {
            /**
             * @description Unique identifier.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "customer";
            livemode: boolean;
            name: string | null;
            /** Format: email */
            email: string | null;
            phone: string | null;
            address: {
                line1: string | null;
                line2: string | null;
                city: string | null;
                postal_code: string | null;
                state: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country: string | null;
            } | null;
            tax_id: string | null;
            /** @description The currency the customer is billed in. */
            currency: string | null;
            /** @description Your id for the customer; unique among the account's customers. */
            external_id: string | null;
            /**
             * @description The mandate charged when invoices are paid automatically.
             * @example mdt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            default_mandate: string | null;
            /** @description Languages, most preferred first: pages, e-mails and PDFs use the first supported one (en, de, fr, es, pl). */
            preferred_locales: string[];
            /**
             * @description The test clock the customer runs on (test mode).
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            test_clock: string | null;
            metadata: components["schemas"]["Metadata"];
            /** @description Whether the customer is archived (`DELETE`). */
            deleted: boolean;
            /**
             * Format: date-time
             * @description When the customer was archived.
             * @example 2026-01-15T12:00:00.000Z
             */
            deleted_at: Timestamp | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
            /** @description Only when the customer is retrieved on its own (`GET /v1/customers/:id`). */
            billing_summary?: {
                /** @description Sum of the totals of the finalized invoices (open, paid, uncollectible; not void) in the customer's `currency`, minor units. */
                total_invoiced: number;
                /** @description Succeeded payments of the customer in its `currency`, minor units (refunds not deducted). */
                total_paid: number;
                /** @description Still owed on open invoices (their `amount_due`), minor units. */
                balance_due: number;
                /** @description ISO 4217. */
                currency: string | null;
                /** @description Finalized invoices counted in `total_invoiced`. */
                invoice_count: number;
            };
        };
        /** @description `customer.created` (docs/api.md §7). */
        CustomerCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "customer.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Customer after the change, as its own endpoint returns it. */
                object: components["schemas"]["Customer"];
            };
        };
        /** @description `customer.deleted` (docs/api.md §7). */
        CustomerDeletedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "customer.deleted";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Customer after the change, as its own endpoint returns it. */
                object: components["schemas"]["Customer"];
            };
        };
        /** @description A page of Customer objects. */
        CustomerList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Customer"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/customers";
        };
        /** @description Attributes of a Customer before a change. */
        CustomerPreviousAttributes: {
            /**
             * @description Unique identifier.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id?: string;
            /** @constant */
            object?: "customer";
            livemode?: boolean;
            name?: string | null;
            /** Format: email */
            email?: string | null;
            phone?: string | null;
            address?: {
                line1?: string | null;
                line2?: string | null;
                city?: string | null;
                postal_code?: string | null;
                state?: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country?: string | null;
            } | null;
            tax_id?: string | null;
            /** @description The currency the customer is billed in. */
            currency?: string | null;
            /** @description Your id for the customer; unique among the account's customers. */
            external_id?: string | null;
            /**
             * @description The mandate charged when invoices are paid automatically.
             * @example mdt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            default_mandate?: string | null;
            /** @description Languages, most preferred first: pages, e-mails and PDFs use the first supported one (en, de, fr, es, pl). */
            preferred_locales?: string[];
            /**
             * @description The test clock the customer runs on (test mode).
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            test_clock?: string | null;
            /** @description The previous value of each metadata key that changed; null for a key the change added. */
            metadata?: {
                [key: string]: string | null;
            };
            /** @description Whether the customer is archived (`DELETE`). */
            deleted?: boolean;
            /**
             * Format: date-time
             * @description When the customer was archived.
             * @example 2026-01-15T12:00:00.000Z
             */
            deleted_at?: Timestamp | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at?: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp;
            /** @description Only when the customer is retrieved on its own (`GET /v1/customers/:id`). */
            billing_summary?: {
                /** @description Sum of the totals of the finalized invoices (open, paid, uncollectible; not void) in the customer's `currency`, minor units. */
                total_invoiced?: number;
                /** @description Succeeded payments of the customer in its `currency`, minor units (refunds not deducted). */
                total_paid?: number;
                /** @description Still owed on open invoices (their `amount_due`), minor units. */
                balance_due?: number;
                /** @description ISO 4217. */
                currency?: string | null;
                /** @description Finalized invoices counted in `total_invoiced`. */
                invoice_count?: number;
            };
        };
        /** @description `customer.updated` (docs/api.md §7). */
        CustomerUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "customer.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Customer after the change, as its own endpoint returns it. */
                object: components["schemas"]["Customer"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["CustomerPreviousAttributes"];
            };
        };
        /** @description A deleted draft invoice. */
        DeletedInvoice: {
            /**
             * @description The deleted draft.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "invoice";
            /** @constant */
            deleted: true;
        };
        /** @description A deleted webhook endpoint. */
        DeletedWebhookEndpoint: {
            /**
             * @description The deleted endpoint.
             * @example we_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            /** @constant */
            deleted: true;
        };
        /** @description Either `percent_bps` (1-10 000) or `amount` (minor units), not both. */
        Discount: {
            percent_bps?: number;
            amount?: number;
        } & (unknown | unknown);
        /** @description A payer's chargeback of a payment, as the processor reports it. */
        Dispute: {
            /**
             * @description Unique identifier.
             * @example dp_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "dispute";
            livemode: boolean;
            /**
             * @description The disputed payment.
             * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            transaction: string;
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant: string | null;
            /** @description The disputed amount, minor units; held back from refunds while open or lost. */
            amount: number;
            /** @description The processor's dispute fee, minor units (0 when it reports none). */
            fee: number;
            /** @description What of the fee the processor gave back (a won dispute, on some processors). */
            fee_returned: number;
            currency: string;
            /** @description The card network's reason, as the processor names it. */
            reason: string;
            /**
             * @description needs_response -> under_review -> won | lost (either may also follow needs_response).
             * @enum {string}
             */
            status: "needs_response" | "under_review" | "won" | "lost";
            /** @description The processor's dispute id (Stripe: `du_...`). */
            processor_reference: string;
            /**
             * Format: date-time
             * @description When the processor needs the evidence.
             * @example 2026-01-15T12:00:00.000Z
             */
            evidence_due_by: Timestamp | null;
            /**
             * Format: date-time
             * @description When it was won or lost.
             * @example 2026-01-15T12:00:00.000Z
             */
            closed_at: Timestamp | null;
            /**
             * Format: date-time
             * @description When the processor reported it.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `dispute.closed` (docs/api.md §7). */
        DisputeClosedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "dispute.closed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Dispute after the change, as its own endpoint returns it. */
                object: components["schemas"]["Dispute"];
            };
        };
        /** @description `dispute.created` (docs/api.md §7). */
        DisputeCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "dispute.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Dispute after the change, as its own endpoint returns it. */
                object: components["schemas"]["Dispute"];
            };
        };
        /** @description A page of Dispute objects. */
        DisputeList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Dispute"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/disputes";
        };
        /** @description `dispute.updated` (docs/api.md §7). */
        DisputeUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "dispute.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Dispute after the change, as its own endpoint returns it. */
                object: components["schemas"]["Dispute"];
            };
        };
        /**
         * @description Every error answer: one envelope, one closed catalogue of codes (docs/errors.md).
         * @example {
         *       "error": {
         *         "type": "invalid_request_error",
         *         "code": "parameter_unknown",
         *         "message": "Received unknown parameter: nickname",
         *         "param": "nickname",
         *         "request_id": "req_4fQk2nT8bW1xZc9LmP0aRs7e"
         *       }
         *     }
         */
        ErrorEnvelope: {
            error: {
                /** @enum {string} */
                type: "invalid_request_error" | "authentication_error" | "payment_error" | "permission_error" | "idempotency_error" | "rate_limit_error" | "api_error";
                /** @enum {string} */
                code: "parameter_missing" | "parameter_invalid" | "parameter_unknown" | "invalid_json" | "currency_unsupported" | "test_mode_only" | "webhook_signature_invalid" | "authentication_required" | "invalid_api_key" | "card_declined" | "insufficient_funds" | "expired_card" | "processing_error" | "insufficient_scope" | "grouping_not_enabled" | "account_suspended" | "resource_missing" | "route_not_found" | "method_not_allowed" | "service_not_installed" | "invalid_state_transition" | "invoice_incomplete" | "transaction_not_refundable" | "merchant_not_active" | "processor_not_configured" | "processor_secrets_unavailable" | "idempotency_request_in_progress" | "resource_busy" | "resource_conflict" | "payload_too_large" | "unsupported_media_type" | "refund_exceeds_remaining" | "idempotency_key_reused" | "rate_limited" | "internal_error" | "upstream_unavailable" | "upstream_timeout";
                /** @description For humans; may change. Match on `code`. */
                message: string;
                /** @description The parameter at fault, nested ones as `created[gt]`. */
                param?: string;
                /** @description The processor's reason, on payment errors. */
                decline_code?: string;
                request_id: string;
            };
        };
        /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
        Estimate: {
            /**
             * @description Unique identifier.
             * @example est_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "estimate";
            livemode: boolean;
            /**
             * @description Same flow; own numbering.
             * @enum {string}
             */
            kind: "estimate" | "quote";
            /**
             * @description The customer the estimate is for.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string;
            /** @enum {string} */
            status: "draft" | "sent" | "accepted" | "declined" | "expired" | "canceled" | "invoiced";
            /** @description Gapless per account, mode and kind, taken at the first send (`EST-0001`, `Q-0001`). */
            number: string | null;
            /** @description ISO 4217. */
            currency: string;
            /** @description Shown on the document. */
            description: string | null;
            lines: {
                description: string;
                quantity: number;
                /** @description Minor units. */
                unit_amount: number;
                /** @description Basis points: 2000 = 20 %. */
                tax_rate_bps: number;
                /** @description quantity x unit_amount, before discount and tax. */
                amount: number;
                /** @description This line's share of the discount (largest-remainder allocation). */
                discount_amount: number;
                /** @description Tax on (amount - discount_amount), rounded half-even once. */
                tax_amount: number;
                /**
                 * @description VAT category: S (standard rated), Z (zero rated), E (exempt), AE (reverse charge), K (intra-community supply), G (export outside the EU).
                 * @enum {string}
                 */
                tax_category: "S" | "Z" | "E" | "AE" | "K" | "G";
                /** @description Why no VAT is charged (E, AE, K and G lines). */
                tax_exemption_reason: string | null;
            }[];
            /** @description Taken off before tax: `{ percent_bps }` or `{ amount }`. */
            discount: {
                percent_bps?: number;
                amount?: number;
            } | null;
            /** @description Sum of the line amounts. */
            subtotal: number;
            /** @description Never more than the subtotal. */
            discount_total: number;
            /** @description Sum of the line taxes. */
            tax_total: number;
            /** @description subtotal - discount_total + tax_total. */
            total: number;
            /**
             * Format: date-time
             * @description A sent estimate not accepted by then becomes `expired`.
             * @example 2026-01-15T12:00:00.000Z
             */
            expires_at: Timestamp | null;
            /**
             * Format: uri
             * @description The customer's page, where they accept or decline (once sent).
             */
            public_url: string | null;
            /**
             * @description The invoice it was converted into.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            invoice: string | null;
            /** @description The seller as of the last send. */
            seller: {
                name: string;
            } | null;
            /** @description The customer as of the last send. */
            customer_details: {
                /** @description Name. */
                name: string | null;
                /** @description E-mail address. */
                email: string | null;
                /** @description Phone. */
                phone: string | null;
                address: {
                    /** @description Line 1. */
                    line1: string | null;
                    /** @description Line 2. */
                    line2: string | null;
                    /** @description City. */
                    city: string | null;
                    /** @description Postal code. */
                    postal_code: string | null;
                    /** @description State or region. */
                    state: string | null;
                    /** @description ISO 3166-1 alpha-2. */
                    country: string | null;
                } | null;
                /** @description Tax id. */
                tax_id: string | null;
                /** @description The customer's languages: the document's pages, e-mails and PDF use the first supported one. */
                preferred_locales: string[];
            } | null;
            status_transitions: {
                /**
                 * Format: date-time
                 * @description The last send.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                sent_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> accepted.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                accepted_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> declined.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                declined_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> expired.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                expired_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> canceled.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                canceled_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> invoiced.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                invoiced_at: Timestamp | null;
            };
            /**
             * @description Who recorded the decision: the API (`/accept`, `/decline`) or the customer on the page.
             * @enum {string|null}
             */
            decided_via: "api" | "page" | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `estimate.accepted` (docs/api.md §7). */
        EstimateAcceptedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.accepted";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description `estimate.created` (docs/api.md §7). */
        EstimateCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description `estimate.declined` (docs/api.md §7). */
        EstimateDeclinedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.declined";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description `estimate.expired` (docs/api.md §7). */
        EstimateExpiredEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.expired";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description `estimate.invoiced` (docs/api.md §7). */
        EstimateInvoicedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.invoiced";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description A page of Estimate objects. */
        EstimateList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Estimate"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/estimates";
        };
        /** @description `estimate.sent` (docs/api.md §7). */
        EstimateSentEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "estimate.sent";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Estimate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Estimate"];
            };
        };
        /** @description Something that happened in the account; delivered to webhook endpoints and kept for 30 days. One schema per `type`. */
        Event: components["schemas"]["AccountUpdatedEvent"] | components["schemas"]["CustomerCreatedEvent"] | components["schemas"]["CustomerDeletedEvent"] | components["schemas"]["CustomerUpdatedEvent"] | components["schemas"]["DisputeClosedEvent"] | components["schemas"]["DisputeCreatedEvent"] | components["schemas"]["DisputeUpdatedEvent"] | components["schemas"]["EstimateAcceptedEvent"] | components["schemas"]["EstimateCreatedEvent"] | components["schemas"]["EstimateDeclinedEvent"] | components["schemas"]["EstimateExpiredEvent"] | components["schemas"]["EstimateInvoicedEvent"] | components["schemas"]["EstimateSentEvent"] | components["schemas"]["InvoiceCreatedEvent"] | components["schemas"]["InvoiceFinalizedEvent"] | components["schemas"]["InvoiceMarkedUncollectibleEvent"] | components["schemas"]["InvoiceOverdueEvent"] | components["schemas"]["InvoicePaidEvent"] | components["schemas"]["InvoicePaymentFailedEvent"] | components["schemas"]["InvoiceSentEvent"] | components["schemas"]["InvoiceVoidedEvent"] | components["schemas"]["MandateCanceledEvent"] | components["schemas"]["MandateCreatedEvent"] | components["schemas"]["MandateFailedEvent"] | components["schemas"]["MandateUpdatedEvent"] | components["schemas"]["MerchantOnboardingUpdatedEvent"] | components["schemas"]["PaymentFailedEvent"] | components["schemas"]["PaymentRequiresActionEvent"] | components["schemas"]["PaymentSucceededEvent"] | components["schemas"]["PaymentLinkCompletedEvent"] | components["schemas"]["PaymentLinkCreatedEvent"] | components["schemas"]["PaymentLinkExpiredEvent"] | components["schemas"]["PaymentLinkUpdatedEvent"] | components["schemas"]["RefundCreatedEvent"] | components["schemas"]["RefundFailedEvent"] | components["schemas"]["RefundSucceededEvent"] | components["schemas"]["SubscriptionCanceledEvent"] | components["schemas"]["SubscriptionCreatedEvent"] | components["schemas"]["SubscriptionPastDueEvent"] | components["schemas"]["SubscriptionPausedEvent"] | components["schemas"]["SubscriptionRenewedEvent"] | components["schemas"]["SubscriptionResumedEvent"] | components["schemas"]["SubscriptionTrialWillEndEvent"] | components["schemas"]["SubscriptionUpdatedEvent"] | components["schemas"]["WebhookEndpointDisabledEvent"] | components["schemas"]["WebhookEndpointTestEvent"];
        /** @description A page of Event objects. */
        EventList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Event"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/events";
        };
        /** @description A bill to a customer. Totals are computed by the server. */
        Invoice: {
            /**
             * @description Unique identifier.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "invoice";
            livemode: boolean;
            /**
             * @description The customer billed.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string;
            /** @enum {string} */
            status: "draft" | "open" | "paid" | "void" | "uncollectible";
            /** @description Gapless per account and mode, assigned at finalization (`INV-0001`). */
            number: string | null;
            /** @description ISO 4217. */
            currency: string;
            /** @description Shown on the invoice. */
            description: string | null;
            lines: {
                description: string;
                quantity: number;
                /** @description Minor units. */
                unit_amount: number;
                /** @description Basis points: 2000 = 20 %. */
                tax_rate_bps: number;
                /** @description quantity x unit_amount, before discount and tax. */
                amount: number;
                /** @description This line's share of the invoice discount (largest-remainder allocation). */
                discount_amount: number;
                /** @description Tax on (amount - discount_amount), rounded half-even once. */
                tax_amount: number;
                /**
                 * @description VAT category: S (standard rated), Z (zero rated), E (exempt), AE (reverse charge), K (intra-community supply), G (export outside the EU).
                 * @enum {string}
                 */
                tax_category: "S" | "Z" | "E" | "AE" | "K" | "G";
                /** @description Why no VAT is charged (E, AE, K and G lines). */
                tax_exemption_reason: string | null;
            }[];
            /** @description The invoice-level discount, taken off before tax: `{ percent_bps }` or `{ amount }`. */
            discount: {
                percent_bps?: number;
                amount?: number;
            } | null;
            /** @description Sum of the line amounts. */
            subtotal: number;
            /** @description Never more than the subtotal. */
            discount_total: number;
            /** @description Sum of the line taxes. */
            tax_total: number;
            /** @description subtotal - discount_total + tax_total. */
            total: number;
            /** @description Received so far. */
            amount_paid: number;
            /** @description Still to pay: total - amount_paid, never negative. */
            amount_due: number;
            /** @enum {string} */
            collection_method: "send_invoice" | "charge_automatically";
            days_until_due: number | null;
            /**
             * Format: date-time
             * @description When payment is due (send_invoice).
             * @example 2026-01-15T12:00:00.000Z
             */
            due_date: Timestamp | null;
            /**
             * Format: uri
             * @description The hosted invoice page (not for drafts).
             */
            hosted_url: string | null;
            /**
             * Format: uri
             * @description The PDF, public like the page (not for drafts).
             */
            pdf_url: string | null;
            /**
             * @description The subscription that produced the invoice.
             * @example sub_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            subscription: string | null;
            /**
             * Format: date-time
             * @description Start of the subscription period billed.
             * @example 2026-01-15T12:00:00.000Z
             */
            period_start: Timestamp | null;
            /**
             * Format: date-time
             * @description End of the subscription period billed.
             * @example 2026-01-15T12:00:00.000Z
             */
            period_end: Timestamp | null;
            /**
             * @description The estimate or quote converted into this invoice.
             * @example est_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            estimate: string | null;
            /**
             * @description The customer's test clock.
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            test_clock: string | null;
            /** @description The seller as it was when the invoice was finalized (the business profile). */
            seller: {
                /** @description The trading name (else the legal name, else the account name). */
                name: string | null;
                /** @description Legal name. */
                legal_name: string | null;
                address: {
                    /** @description Line 1. */
                    line1: string | null;
                    /** @description Line 2. */
                    line2: string | null;
                    /** @description City. */
                    city: string | null;
                    /** @description Postal code. */
                    postal_code: string | null;
                    /** @description State or region. */
                    state: string | null;
                    /** @description ISO 3166-1 alpha-2. */
                    country: string | null;
                } | null;
                tax_ids: {
                    /** @enum {string} */
                    type: "eu_vat" | "gb_vat" | "ch_vat" | "no_vat" | "us_ein" | "au_abn";
                    /** @description Normalised: upper case, without spaces or dots. */
                    value: string;
                }[];
                /** @description Support e-mail address. */
                email: string | null;
                /** @description Support phone. */
                phone: string | null;
                /** @description Website. */
                website: string | null;
                /** @description The invoice footer. */
                footer: string | null;
            } | null;
            /** @description The customer as it was when the invoice was finalized. */
            customer_details: {
                /** @description Name. */
                name: string | null;
                /** @description E-mail address. */
                email: string | null;
                /** @description Phone. */
                phone: string | null;
                address: {
                    /** @description Line 1. */
                    line1: string | null;
                    /** @description Line 2. */
                    line2: string | null;
                    /** @description City. */
                    city: string | null;
                    /** @description Postal code. */
                    postal_code: string | null;
                    /** @description State or region. */
                    state: string | null;
                    /** @description ISO 3166-1 alpha-2. */
                    country: string | null;
                } | null;
                /** @description Tax id. */
                tax_id: string | null;
                /** @description The customer's languages: the document's pages, e-mails and PDF use the first supported one. */
                preferred_locales: string[];
            } | null;
            status_transitions: {
                /**
                 * Format: date-time
                 * @description draft -> open.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                finalized_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> paid.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                paid_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> void.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                voided_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description -> uncollectible.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                marked_uncollectible_at: Timestamp | null;
            };
            /**
             * Format: date-time
             * @description The last e-mail to the customer.
             * @example 2026-01-15T12:00:00.000Z
             */
            sent_at: Timestamp | null;
            /** @description Open past its due date (invoice.overdue was emitted). */
            overdue: boolean;
            /** @description Mandate charges requested so far. */
            attempt_count: number;
            /** @description The last payment attempt failed (the invoice stays open). */
            last_payment_error: {
                /** @description The decline code, e.g. `card_declined`. */
                code: string | null;
                /** @description Why the payment failed. */
                message: string | null;
                /**
                 * @description The failed payment.
                 * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
                 */
                transaction: string | null;
            } | null;
            /** @description Marked paid with `paid_out_of_band: true`. */
            paid_out_of_band: boolean;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `invoice.created` (docs/api.md §7). */
        InvoiceCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.finalized` (docs/api.md §7). */
        InvoiceFinalizedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.finalized";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        InvoiceLine: {
            description: string;
            /** @description A whole number, 1 to 1 000 000. */
            quantity: number;
            /** @description Minor units, 0 to 99 999 999 999. */
            unit_amount: number;
            /** @description Tax rate in basis points, 0 (default) to 10 000: 2000 = 20 %. */
            tax_rate_bps?: number;
            /**
             * @description VAT category (EN 16931): `S` standard rated (a positive rate), `Z` zero rated, `E` exempt, `AE` reverse charge, `K` intra-community supply (VAT-exempt goods or services to a business in another member state), `G` export outside the EU (all but S at rate 0). Default: S with a positive rate, else Z.
             * @enum {string}
             */
            tax_category?: "S" | "Z" | "E" | "AE" | "K" | "G";
            /** @description Why no VAT is charged: required for E, AE, K and G lines (the same on every line of a category), refused for S and Z. */
            tax_exemption_reason?: string;
        };
        /** @description A page of Invoice objects. */
        InvoiceList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Invoice"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/invoices";
        };
        /** @description `invoice.marked_uncollectible` (docs/api.md §7). */
        InvoiceMarkedUncollectibleEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.marked_uncollectible";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.overdue` (docs/api.md §7). */
        InvoiceOverdueEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.overdue";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.paid` (docs/api.md §7). */
        InvoicePaidEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.paid";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.payment_failed` (docs/api.md §7). */
        InvoicePaymentFailedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.payment_failed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.sent` (docs/api.md §7). */
        InvoiceSentEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.sent";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        /** @description `invoice.voided` (docs/api.md §7). */
        InvoiceVoidedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invoice.voided";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Invoice after the change, as its own endpoint returns it. */
                object: components["schemas"]["Invoice"];
            };
        };
        LineItem: {
            description: string;
            quantity: number;
            /** @description Minor units, 1 to 99 999 999 999. */
            unit_amount: number;
        };
        /** @description Permission to charge a stored card again: every cycle of a recurring link, or per invoice. */
        Mandate: {
            /**
             * @description Unique identifier.
             * @example mdt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "mandate";
            livemode: boolean;
            /** @enum {string} */
            status: "active" | "canceled" | "failed";
            /**
             * @description `recurring`: charged every cycle by the scheduler (from a recurring payment link). `on_demand`: charged per invoice by the invoicing service.
             * @enum {string}
             */
            type: "recurring" | "on_demand";
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant: string | null;
            /**
             * @description The recurring link whose checkout created it.
             * @example plink_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            payment_link: string | null;
            /**
             * @description The invoicing customer whose card it is (on-demand mandates).
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string | null;
            /** @description Your reference, carried from the link. */
            client_reference_id: string | null;
            /** @description Who authorised the mandate, as entered on the checkout page. */
            payer: {
                name: string | null;
                email: string | null;
            };
            /** @description The stored card: never the full number or the CVC. */
            payment_method: {
                /** @enum {string} */
                brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4: string;
                exp_month: number;
                exp_year: number;
            };
            /** @description Minor units charged each cycle (recurring mandates). */
            amount: number | null;
            /** @description ISO 4217. */
            currency: string;
            /** @enum {string|null} */
            interval: "day" | "week" | "month" | "year" | null;
            interval_count: number | null;
            /**
             * Format: date-time
             * @description When the scheduler charges next (a retry after a failure); null unless active and recurring.
             * @example 2026-01-15T12:00:00.000Z
             */
            next_charge_at: Timestamp | null;
            /** @description The decline of the last failed charge attempt, if the latest attempt failed. */
            failure_code: string | null;
            /**
             * Format: date-time
             * @description When it was canceled.
             * @example 2026-01-15T12:00:00.000Z
             */
            canceled_at: Timestamp | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `mandate.canceled` (docs/api.md §7). */
        MandateCanceledEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "mandate.canceled";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Mandate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Mandate"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["MandatePreviousAttributes"];
            };
        };
        /** @description `mandate.created` (docs/api.md §7). */
        MandateCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "mandate.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Mandate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Mandate"];
            };
        };
        /** @description `mandate.failed` (docs/api.md §7). */
        MandateFailedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "mandate.failed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Mandate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Mandate"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["MandatePreviousAttributes"];
            };
        };
        /** @description A page of Mandate objects. */
        MandateList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Mandate"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/mandates";
        };
        /** @description Attributes of a Mandate before a change. */
        MandatePreviousAttributes: {
            /**
             * @description Unique identifier.
             * @example mdt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id?: string;
            /** @constant */
            object?: "mandate";
            livemode?: boolean;
            /** @enum {string} */
            status?: "active" | "canceled" | "failed";
            /**
             * @description `recurring`: charged every cycle by the scheduler (from a recurring payment link). `on_demand`: charged per invoice by the invoicing service.
             * @enum {string}
             */
            type?: "recurring" | "on_demand";
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string | null;
            /**
             * @description The recurring link whose checkout created it.
             * @example plink_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            payment_link?: string | null;
            /**
             * @description The invoicing customer whose card it is (on-demand mandates).
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer?: string | null;
            /** @description Your reference, carried from the link. */
            client_reference_id?: string | null;
            /** @description Who authorised the mandate, as entered on the checkout page. */
            payer?: {
                name?: string | null;
                email?: string | null;
            };
            /** @description The stored card: never the full number or the CVC. */
            payment_method?: {
                /** @enum {string} */
                brand?: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4?: string;
                exp_month?: number;
                exp_year?: number;
            };
            /** @description Minor units charged each cycle (recurring mandates). */
            amount?: number | null;
            /** @description ISO 4217. */
            currency?: string;
            /** @enum {string|null} */
            interval?: "day" | "week" | "month" | "year" | null;
            interval_count?: number | null;
            /**
             * Format: date-time
             * @description When the scheduler charges next (a retry after a failure); null unless active and recurring.
             * @example 2026-01-15T12:00:00.000Z
             */
            next_charge_at?: Timestamp | null;
            /** @description The decline of the last failed charge attempt, if the latest attempt failed. */
            failure_code?: string | null;
            /**
             * Format: date-time
             * @description When it was canceled.
             * @example 2026-01-15T12:00:00.000Z
             */
            canceled_at?: Timestamp | null;
            /** @description The previous value of each metadata key that changed; null for a key the change added. */
            metadata?: {
                [key: string]: string | null;
            };
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at?: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp;
        };
        /** @description `mandate.updated` (docs/api.md §7). */
        MandateUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "mandate.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Mandate after the change, as its own endpoint returns it. */
                object: components["schemas"]["Mandate"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["MandatePreviousAttributes"];
            };
        };
        /** @description A business that accepts payments. An account has a default merchant and may onboard more. */
        Merchant: {
            /**
             * @description Unique identifier.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "merchant";
            livemode: boolean;
            /** @description Whether this is the account's default merchant. */
            is_default: boolean;
            business_name: string | null;
            /** Format: email */
            email: string | null;
            /** @description ISO 3166-1 alpha-2. */
            country: string | null;
            /** @description ISO 4217. */
            default_currency: string | null;
            /** @enum {string|null} */
            business_type: "individual" | "company" | "non_profit" | "government_entity" | null;
            /** Format: uri */
            website: string | null;
            /** @description Where the merchant is in onboarding. */
            onboarding: {
                /**
                 * @description pending -> in_review -> active | rejected; active <-> restricted (operator).
                 * @enum {string}
                 */
                status: "pending" | "in_review" | "active" | "rejected" | "restricted";
                /**
                 * @description Details still missing before review.
                 * @example [
                 *       "business_type"
                 *     ]
                 */
                requirements_due: string[];
                /**
                 * Format: date-time
                 * @description When every requirement was in.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                submitted_at: Timestamp | null;
                /**
                 * Format: date-time
                 * @description When the last decision was made.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                decided_at: Timestamp | null;
                /** @description Why the merchant was rejected or restricted. */
                reason: string | null;
            };
            capabilities: {
                /** @enum {string} */
                card_payments: "active" | "inactive" | "pending";
                /** @enum {string} */
                payouts: "active" | "inactive" | "pending";
            };
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description A page of Merchant objects. */
        MerchantList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Merchant"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/merchants";
        };
        /** @description `merchant.onboarding.updated` (docs/api.md §7). */
        MerchantOnboardingUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "merchant.onboarding.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Merchant after the change, as its own endpoint returns it. */
                object: components["schemas"]["Merchant"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["MerchantPreviousAttributes"];
            };
        };
        /** @description Attributes of a Merchant before a change. */
        MerchantPreviousAttributes: {
            /**
             * @description Unique identifier.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id?: string;
            /** @constant */
            object?: "merchant";
            livemode?: boolean;
            /** @description Whether this is the account's default merchant. */
            is_default?: boolean;
            business_name?: string | null;
            /** Format: email */
            email?: string | null;
            /** @description ISO 3166-1 alpha-2. */
            country?: string | null;
            /** @description ISO 4217. */
            default_currency?: string | null;
            /** @enum {string|null} */
            business_type?: "individual" | "company" | "non_profit" | "government_entity" | null;
            /** Format: uri */
            website?: string | null;
            /** @description Where the merchant is in onboarding. */
            onboarding?: {
                /**
                 * @description pending -> in_review -> active | rejected; active <-> restricted (operator).
                 * @enum {string}
                 */
                status?: "pending" | "in_review" | "active" | "rejected" | "restricted";
                /**
                 * @description Details still missing before review.
                 * @example [
                 *       "business_type"
                 *     ]
                 */
                requirements_due?: string[];
                /**
                 * Format: date-time
                 * @description When every requirement was in.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                submitted_at?: Timestamp | null;
                /**
                 * Format: date-time
                 * @description When the last decision was made.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                decided_at?: Timestamp | null;
                /** @description Why the merchant was rejected or restricted. */
                reason?: string | null;
            };
            capabilities?: {
                /** @enum {string} */
                card_payments?: "active" | "inactive" | "pending";
                /** @enum {string} */
                payouts?: "active" | "inactive" | "pending";
            };
            /** @description The previous value of each metadata key that changed; null for a key the change added. */
            metadata?: {
                [key: string]: string | null;
            };
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at?: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp;
        };
        /**
         * @description Your own key-value pairs: at most 50 keys of up to 40 characters, string values up to 500.
         * @example {
         *       "order_id": "6735"
         *     }
         */
        Metadata: {
            [key: string]: string;
        };
        /**
         * @example {
         *       "paid_out_of_band": true
         *     }
         * @example {}
         */
        PayInvoice: {
            /** @description Record the invoice as paid outside Paygrid instead of charging the mandate. */
            paid_out_of_band?: boolean;
        };
        /** @description `payment.failed` (docs/api.md §7). */
        PaymentFailedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment.failed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Transaction after the change, as its own endpoint returns it. */
                object: components["schemas"]["Transaction"];
            };
        };
        /** @description A shareable URL of a hosted checkout page that takes card payments for a fixed amount or list of items. */
        PaymentLink: {
            /**
             * @description Unique identifier.
             * @example plink_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "payment_link";
            livemode: boolean;
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant: string | null;
            /** @enum {string} */
            type: "one_time" | "recurring";
            /** @description Minor units, when the link has a single amount. */
            amount: number | null;
            /** @description ISO 4217. */
            currency: string;
            /** @description What is sold, when the link lists items. */
            line_items: {
                description: string;
                quantity: number;
                /** @description Minor units. */
                unit_amount: number;
            }[] | null;
            /** @description What the payer pays: amount, or the sum of the line items (computed by the server). */
            amount_total: number;
            /** @description For recurring links: the billing cycle. */
            recurring: {
                /** @enum {string} */
                interval: "day" | "week" | "month" | "year";
                interval_count: number;
            } | null;
            description: string | null;
            /** @description Payments after which the link completes. */
            max_completions: number | null;
            /** @description Successful payments so far. */
            completions_count: number;
            /**
             * Format: date-time
             * @description When the link stops accepting payments.
             * @example 2026-01-15T12:00:00.000Z
             */
            expires_at: Timestamp | null;
            /** @description Where the payer goes after paying. */
            after_completion: {
                /** Format: uri */
                redirect_url: string;
            } | null;
            /** @description Your reference, carried onto each payment. */
            client_reference_id: string | null;
            /**
             * Format: uri
             * @description The hosted checkout page.
             */
            url: string;
            /** @enum {string} */
            status: "active" | "inactive" | "completed" | "expired";
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `payment_link.completed` (docs/api.md §7). */
        PaymentLinkCompletedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment_link.completed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The PaymentLink after the change, as its own endpoint returns it. */
                object: components["schemas"]["PaymentLink"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["PaymentLinkPreviousAttributes"];
            };
        };
        /** @description `payment_link.created` (docs/api.md §7). */
        PaymentLinkCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment_link.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The PaymentLink after the change, as its own endpoint returns it. */
                object: components["schemas"]["PaymentLink"];
            };
        };
        /** @description `payment_link.expired` (docs/api.md §7). */
        PaymentLinkExpiredEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment_link.expired";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The PaymentLink after the change, as its own endpoint returns it. */
                object: components["schemas"]["PaymentLink"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["PaymentLinkPreviousAttributes"];
            };
        };
        /** @description A page of PaymentLink objects. */
        PaymentLinkList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["PaymentLink"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/payment-links";
        };
        /** @description Attributes of a PaymentLink before a change. */
        PaymentLinkPreviousAttributes: {
            /**
             * @description Unique identifier.
             * @example plink_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id?: string;
            /** @constant */
            object?: "payment_link";
            livemode?: boolean;
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string | null;
            /** @enum {string} */
            type?: "one_time" | "recurring";
            /** @description Minor units, when the link has a single amount. */
            amount?: number | null;
            /** @description ISO 4217. */
            currency?: string;
            /** @description What is sold, when the link lists items. */
            line_items?: {
                description: string;
                quantity: number;
                /** @description Minor units. */
                unit_amount: number;
            }[] | null;
            /** @description What the payer pays: amount, or the sum of the line items (computed by the server). */
            amount_total?: number;
            /** @description For recurring links: the billing cycle. */
            recurring?: {
                /** @enum {string} */
                interval?: "day" | "week" | "month" | "year";
                interval_count?: number;
            } | null;
            description?: string | null;
            /** @description Payments after which the link completes. */
            max_completions?: number | null;
            /** @description Successful payments so far. */
            completions_count?: number;
            /**
             * Format: date-time
             * @description When the link stops accepting payments.
             * @example 2026-01-15T12:00:00.000Z
             */
            expires_at?: Timestamp | null;
            /** @description Where the payer goes after paying. */
            after_completion?: {
                /** Format: uri */
                redirect_url?: string;
            } | null;
            /** @description Your reference, carried onto each payment. */
            client_reference_id?: string | null;
            /**
             * Format: uri
             * @description The hosted checkout page.
             */
            url?: string;
            /** @enum {string} */
            status?: "active" | "inactive" | "completed" | "expired";
            /** @description The previous value of each metadata key that changed; null for a key the change added. */
            metadata?: {
                [key: string]: string | null;
            };
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at?: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp;
        };
        /** @description `payment_link.updated` (docs/api.md §7). */
        PaymentLinkUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment_link.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The PaymentLink after the change, as its own endpoint returns it. */
                object: components["schemas"]["PaymentLink"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["PaymentLinkPreviousAttributes"];
            };
        };
        /** @description `payment.requires_action` (docs/api.md §7). */
        PaymentRequiresActionEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment.requires_action";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Transaction after the change, as its own endpoint returns it. */
                object: components["schemas"]["Transaction"];
            };
        };
        /** @description `payment.succeeded` (docs/api.md §7). */
        PaymentSucceededEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payment.succeeded";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Transaction after the change, as its own endpoint returns it. */
                object: components["schemas"]["Transaction"];
            };
        };
        /** @description A customer's access to the customer portal: open and paid invoices, subscriptions, saved cards. */
        PortalSession: {
            /**
             * @description Unique identifier (sessions are not stored: the link itself is the credential).
             * @example bps_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "portal_session";
            livemode: boolean;
            /**
             * @description The customer the portal shows.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string;
            /**
             * Format: uri
             * @description The portal: a signed link to send the customer to (`/portal/<token>`), valid until `expires_at`.
             */
            url: string;
            /**
             * Format: uri
             * @description Where "Return to ..." leads.
             */
            return_url: string | null;
            /** @description The portal's language when given; otherwise the customer's `preferred_locales`. */
            locale: string | null;
            /**
             * Format: date-time
             * @description When the link stops working.
             * @example 2026-01-15T12:00:00.000Z
             */
            expires_at: Timestamp;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
        };
        /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
        ProcessorConnection: {
            /**
             * @description Unique identifier.
             * @example pcon_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "processor_connection";
            livemode: boolean;
            /** @enum {string} */
            processor: "stripe";
            /**
             * @description active <-> failing (the last verification was refused); either -> disabled (final). At most one connection per account and mode is not disabled; live payments go to it.
             * @enum {string}
             */
            status: "active" | "failing" | "disabled";
            description: string | null;
            /** @description What is shown of the credentials: never the credentials themselves. */
            credentials: {
                /** @description The last 4 characters of the API key. */
                secret_key_last4: string;
            };
            /** @description The processor's account id (Stripe: `acct_...`), known once verified. */
            processor_account: string | null;
            /** @description The last verification (`POST /v1/processor-connections/{id}/verify`). */
            verification: {
                /** @enum {string} */
                status: "unverified" | "succeeded" | "failed";
                /** @description Why the processor refused the credentials. */
                message: string | null;
                /**
                 * Format: date-time
                 * @description When the processor was last asked.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                verified_at: Timestamp | null;
            };
            /**
             * Format: date-time
             * @description When it was disabled.
             * @example 2026-01-15T12:00:00.000Z
             */
            disabled_at: Timestamp | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description A page of ProcessorConnection objects. */
        ProcessorConnectionList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["ProcessorConnection"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/processor-connections";
        };
        ProcessorCredentials: {
            /** @description The processor API key (Stripe: `sk_live_...` or a restricted `rk_live_...`). Write-only. */
            secret_key: string;
            /** @description The processor's webhook signing secret (Stripe: `whsec_...`). Write-only. */
            webhook_signing_secret: string;
        };
        RangeFilter: {
            /**
             * @description Unix seconds or an RFC 3339 timestamp.
             * @example 2026-01-01T00:00:00Z
             * @example 1767225600
             */
            gt?: string;
            /**
             * @description Unix seconds or an RFC 3339 timestamp.
             * @example 2026-01-01T00:00:00Z
             * @example 1767225600
             */
            gte?: string;
            /**
             * @description Unix seconds or an RFC 3339 timestamp.
             * @example 2026-01-01T00:00:00Z
             * @example 1767225600
             */
            lt?: string;
            /**
             * @description Unix seconds or an RFC 3339 timestamp.
             * @example 2026-01-01T00:00:00Z
             * @example 1767225600
             */
            lte?: string;
        };
        ReceiptSwitches: {
            /** @description E-mail a receipt (PDF attached) when a payment succeeds. Default true. */
            payments?: boolean | null;
            /** @description E-mail a refund notice when a refund succeeds. Default true. */
            refunds?: boolean | null;
        };
        Recurring: {
            /** @enum {string} */
            interval: "day" | "week" | "month" | "year";
            interval_count?: number;
        };
        /** @description A full or partial refund of a succeeded payment. */
        Refund: {
            /**
             * @description Unique identifier.
             * @example re_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "refund";
            livemode: boolean;
            /**
             * @description The payment refunded.
             * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            transaction: string;
            /**
             * @description The refund transaction that moves the money back.
             * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            refund_transaction: string;
            /** @description Minor units. */
            amount: number;
            /** @description ISO 4217. */
            currency: string;
            /** @enum {string|null} */
            reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
            /**
             * @description `requires_action`: the payer is authenticating at the processor (3-D Secure); the payment becomes `succeeded` or `failed` when they return or the processor reports.
             * @enum {string}
             */
            status: "pending" | "requires_action" | "succeeded" | "failed";
            failure_reason: string | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `refund.created` (docs/api.md §7). */
        RefundCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "refund.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Refund after the change, as its own endpoint returns it. */
                object: components["schemas"]["Refund"];
            };
        };
        /** @description `refund.failed` (docs/api.md §7). */
        RefundFailedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "refund.failed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Refund after the change, as its own endpoint returns it. */
                object: components["schemas"]["Refund"];
            };
        };
        /** @description A page of Refund objects. */
        RefundList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Refund"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/refunds";
        };
        /** @description `refund.succeeded` (docs/api.md §7). */
        RefundSucceededEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "refund.succeeded";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Refund after the change, as its own endpoint returns it. */
                object: components["schemas"]["Refund"];
            };
        };
        /** @description An API request of the account, kept for 24 hours. */
        RequestLog: {
            /** @constant */
            object: "request_log";
            /**
             * @description The request id (the `Request-Id` header of its answer).
             * @example req_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @enum {string} */
            method: "GET" | "HEAD" | "POST" | "DELETE";
            /**
             * @description The path, without its query string.
             * @example /v1/payment-links
             */
            path: string;
            /** @description The HTTP status of the answer. */
            status: number;
            /** @description Milliseconds from the request reaching the gateway to its answer leaving it. */
            duration_ms: number;
            /**
             * Format: date-time
             * @description When the answer left the gateway.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
        };
        /** @description A page of RequestLog objects. */
        RequestLogList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["RequestLog"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/request-logs";
        };
        /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
        Subscription: {
            /**
             * @description Unique identifier.
             * @example sub_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "subscription";
            livemode: boolean;
            /**
             * @description The customer billed.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string;
            /**
             * @description The customer's test clock: the subscription lives at its time.
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            test_clock: string | null;
            /** @enum {string} */
            status: "trialing" | "active" | "incomplete" | "incomplete_expired" | "past_due" | "unpaid" | "canceled" | "paused";
            /** @description ISO 4217. */
            currency: string;
            items: {
                description: string;
                /** @description Per unit and period, minor units. */
                unit_amount: number;
                /** @description ISO 4217. */
                currency: string;
                quantity: number;
                /** @enum {string} */
                interval: "day" | "week" | "month" | "year";
                interval_count: number;
            }[];
            /** @enum {string} */
            interval: "day" | "week" | "month" | "year";
            interval_count: number;
            /** @description IANA zone the periods are computed in. */
            time_zone: string;
            /**
             * Format: date-time
             * @description Periods are computed from this instant (month-end clamped).
             * @example 2026-01-15T12:00:00.000Z
             */
            billing_cycle_anchor: Timestamp;
            /**
             * Format: date-time
             * @description When the subscription was created (its clock time).
             * @example 2026-01-15T12:00:00.000Z
             */
            start_date: Timestamp;
            /**
             * Format: date-time
             * @description Start of the trial.
             * @example 2026-01-15T12:00:00.000Z
             */
            trial_start: Timestamp | null;
            /**
             * Format: date-time
             * @description End of the trial.
             * @example 2026-01-15T12:00:00.000Z
             */
            trial_end: Timestamp | null;
            /**
             * Format: date-time
             * @description Start of the period billed last (or of the trial).
             * @example 2026-01-15T12:00:00.000Z
             */
            current_period_start: Timestamp | null;
            /**
             * Format: date-time
             * @description End of that period: the next renewal.
             * @example 2026-01-15T12:00:00.000Z
             */
            current_period_end: Timestamp | null;
            /** @enum {string} */
            collection_method: "charge_automatically" | "send_invoice";
            days_until_due: number | null;
            /**
             * @description What the subscription becomes when the last dunning retry fails.
             * @enum {string}
             */
            dunning_end_state: "unpaid" | "canceled";
            /**
             * @description The last invoice billing created for it.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            latest_invoice: string | null;
            /** @description Credit (from downgrades) deducted from the next invoices, minor units. */
            pending_credit: number;
            cancel_at_period_end: boolean;
            /**
             * Format: date-time
             * @description When it was canceled.
             * @example 2026-01-15T12:00:00.000Z
             */
            canceled_at: Timestamp | null;
            /**
             * Format: date-time
             * @description When it ended.
             * @example 2026-01-15T12:00:00.000Z
             */
            ended_at: Timestamp | null;
            /**
             * Format: date-time
             * @description When it was paused.
             * @example 2026-01-15T12:00:00.000Z
             */
            paused_at: Timestamp | null;
            /**
             * Format: date-time
             * @description When the billing engine next acts on it.
             * @example 2026-01-15T12:00:00.000Z
             */
            next_action_at: Timestamp | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `subscription.canceled` (docs/api.md §7). */
        SubscriptionCanceledEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.canceled";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        /** @description `subscription.created` (docs/api.md §7). */
        SubscriptionCreatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.created";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
            };
        };
        SubscriptionItem: {
            description: string;
            unit_amount: number;
            /**
             * Format: currency
             * @description ISO 4217, any case; the same for every item.
             */
            currency: string;
            quantity?: number | null;
            /**
             * @description The billing cycle: the same for every item of a subscription.
             * @enum {string}
             */
            interval: "day" | "week" | "month" | "year";
            interval_count?: number | null;
        };
        /** @description A page of Subscription objects. */
        SubscriptionList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Subscription"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/subscriptions";
        };
        /** @description `subscription.past_due` (docs/api.md §7). */
        SubscriptionPastDueEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.past_due";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        /** @description `subscription.paused` (docs/api.md §7). */
        SubscriptionPausedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.paused";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        /** @description What a change to a subscription bills, computed by the same code as the change. */
        SubscriptionPreview: {
            /** @constant */
            object: "subscription_preview";
            /**
             * @description The subscription.
             * @example sub_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            subscription: string;
            /** @description ISO 4217. */
            currency: string;
            /** @enum {string} */
            proration_behavior: "create_prorations" | "none" | "always_invoice";
            /**
             * Format: date-time
             * @description The instant the change is prorated at; pass it to the change.
             * @example 2026-01-15T12:00:00.000Z
             */
            proration_date: Timestamp | null;
            proration_lines: {
                description: string;
                /** @description Negative: unused time credited. */
                amount: number;
                /**
                 * Format: date-time
                 * @description From.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                period_start: Timestamp;
                /**
                 * Format: date-time
                 * @description To.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                period_end: Timestamp;
            }[];
            /** @description The invoice `always_invoice` creates at once. */
            invoice_now: {
                lines: {
                    description: string;
                    quantity: number;
                    unit_amount: number;
                }[];
                /** @description Sum of the lines. */
                subtotal: number;
                /** @description Credit applied (unused time, earlier credit), at most the subtotal. */
                discount: number;
                /** @description subtotal - discount. */
                total: number;
                /** @description Credit carried to later invoices. */
                credit_left: number;
            } | null;
            /** @description The next renewal invoice. */
            next_invoice: {
                lines: {
                    description: string;
                    quantity: number;
                    unit_amount: number;
                }[];
                /** @description Sum of the lines. */
                subtotal: number;
                /** @description Credit applied (unused time, earlier credit), at most the subtotal. */
                discount: number;
                /** @description subtotal - discount. */
                total: number;
                /** @description Credit carried to later invoices. */
                credit_left: number;
                /**
                 * Format: date-time
                 * @description Start of the next period.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                period_start: Timestamp;
                /**
                 * Format: date-time
                 * @description Its end.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                period_end: Timestamp;
            };
        };
        /** @description Attributes of a Subscription before a change. */
        SubscriptionPreviousAttributes: {
            /**
             * @description Unique identifier.
             * @example sub_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id?: string;
            /** @constant */
            object?: "subscription";
            livemode?: boolean;
            /**
             * @description The customer billed.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer?: string;
            /**
             * @description The customer's test clock: the subscription lives at its time.
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            test_clock?: string | null;
            /** @enum {string} */
            status?: "trialing" | "active" | "incomplete" | "incomplete_expired" | "past_due" | "unpaid" | "canceled" | "paused";
            /** @description ISO 4217. */
            currency?: string;
            items?: {
                description?: string;
                /** @description Per unit and period, minor units. */
                unit_amount?: number;
                /** @description ISO 4217. */
                currency?: string;
                quantity?: number;
                /** @enum {string} */
                interval?: "day" | "week" | "month" | "year";
                interval_count?: number;
            }[];
            /** @enum {string} */
            interval?: "day" | "week" | "month" | "year";
            interval_count?: number;
            /** @description IANA zone the periods are computed in. */
            time_zone?: string;
            /**
             * Format: date-time
             * @description Periods are computed from this instant (month-end clamped).
             * @example 2026-01-15T12:00:00.000Z
             */
            billing_cycle_anchor?: Timestamp;
            /**
             * Format: date-time
             * @description When the subscription was created (its clock time).
             * @example 2026-01-15T12:00:00.000Z
             */
            start_date?: Timestamp;
            /**
             * Format: date-time
             * @description Start of the trial.
             * @example 2026-01-15T12:00:00.000Z
             */
            trial_start?: Timestamp | null;
            /**
             * Format: date-time
             * @description End of the trial.
             * @example 2026-01-15T12:00:00.000Z
             */
            trial_end?: Timestamp | null;
            /**
             * Format: date-time
             * @description Start of the period billed last (or of the trial).
             * @example 2026-01-15T12:00:00.000Z
             */
            current_period_start?: Timestamp | null;
            /**
             * Format: date-time
             * @description End of that period: the next renewal.
             * @example 2026-01-15T12:00:00.000Z
             */
            current_period_end?: Timestamp | null;
            /** @enum {string} */
            collection_method?: "charge_automatically" | "send_invoice";
            days_until_due?: number | null;
            /**
             * @description What the subscription becomes when the last dunning retry fails.
             * @enum {string}
             */
            dunning_end_state?: "unpaid" | "canceled";
            /**
             * @description The last invoice billing created for it.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            latest_invoice?: string | null;
            /** @description Credit (from downgrades) deducted from the next invoices, minor units. */
            pending_credit?: number;
            cancel_at_period_end?: boolean;
            /**
             * Format: date-time
             * @description When it was canceled.
             * @example 2026-01-15T12:00:00.000Z
             */
            canceled_at?: Timestamp | null;
            /**
             * Format: date-time
             * @description When it ended.
             * @example 2026-01-15T12:00:00.000Z
             */
            ended_at?: Timestamp | null;
            /**
             * Format: date-time
             * @description When it was paused.
             * @example 2026-01-15T12:00:00.000Z
             */
            paused_at?: Timestamp | null;
            /**
             * Format: date-time
             * @description When the billing engine next acts on it.
             * @example 2026-01-15T12:00:00.000Z
             */
            next_action_at?: Timestamp | null;
            /** @description The previous value of each metadata key that changed; null for a key the change added. */
            metadata?: {
                [key: string]: string | null;
            };
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at?: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at?: Timestamp;
        };
        /** @description `subscription.renewed` (docs/api.md §7). */
        SubscriptionRenewedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.renewed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        /** @description `subscription.resumed` (docs/api.md §7). */
        SubscriptionResumedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.resumed";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        /** @description `subscription.trial_will_end` (docs/api.md §7). */
        SubscriptionTrialWillEndEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.trial_will_end";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
            };
        };
        /** @description `subscription.updated` (docs/api.md §7). */
        SubscriptionUpdatedEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subscription.updated";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The Subscription after the change, as its own endpoint returns it. */
                object: components["schemas"]["Subscription"];
                /** @description The attributes that changed, as they were before the change. */
                previous_attributes?: components["schemas"]["SubscriptionPreviousAttributes"];
            };
        };
        TaxId: {
            /** @enum {string} */
            type: "eu_vat" | "gb_vat" | "ch_vat" | "no_vat" | "us_ein" | "au_abn";
            /** @description Checked against the format of its type (an EU VAT number: of its country prefix). */
            value: string;
        };
        /** @description A frozen time for sandbox customers; advancing it runs their billing up to the new time. */
        TestClock: {
            /**
             * @description Unique identifier.
             * @example clock_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "test_clock";
            /** @constant */
            livemode: false;
            name: string | null;
            /**
             * Format: date-time
             * @description The time its customers live at.
             * @example 2026-01-15T12:00:00.000Z
             */
            frozen_time: Timestamp;
            /** @enum {string} */
            status: "ready" | "advancing";
            /**
             * Format: date-time
             * @description While advancing: the target time.
             * @example 2026-01-15T12:00:00.000Z
             */
            advancing_to: Timestamp | null;
            deleted: boolean;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description A page of TestClock objects. */
        TestClockList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["TestClock"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/test-clocks";
        };
        /**
         * @example {
         *       "amount": 1000,
         *       "currency": "USD",
         *       "card_number": "4242424242424242",
         *       "save_card": true
         *     }
         */
        TestPayment: {
            /** @description Minor units, 1 to 99 999 999 999. */
            amount: number;
            /**
             * Format: currency
             * @description ISO 4217, any case.
             */
            currency: string;
            /** @description One of the sandbox test cards (docs/api.md §5). Never stored. */
            card_number: string;
            /** @description Also store the card as an on-demand mandate (what a payer ticking "save this card" on a hosted invoice does), for testing charges through mandates. */
            save_card?: boolean;
            /** @description The invoicing customer the payment (and the saved card) belongs to. */
            customer?: string;
        };
        /** @description One money movement, a payment or a refund, backed by double-entry ledger entries. */
        Transaction: {
            /**
             * @description Unique identifier.
             * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "transaction";
            livemode: boolean;
            /** @enum {string} */
            type: "payment" | "refund";
            /**
             * @description `requires_action`: the payer is authenticating at the processor (3-D Secure); the payment becomes `succeeded` or `failed` when they return or the processor reports.
             * @enum {string}
             */
            status: "pending" | "requires_action" | "succeeded" | "failed";
            /** @description Minor units; positive. A refund's is the refunded amount. */
            amount: number;
            /** @description ISO 4217. */
            currency: string;
            /** @description Refunded so far, including refunds still pending (payments only). */
            amount_refunded: number;
            /** @description What can still be refunded: 0 unless a succeeded payment. */
            refundable_amount: number;
            /**
             * @description For a refund: the payment it refunds.
             * @example txn_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            refunded_transaction: string | null;
            /**
             * @description The merchant paid.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant: string | null;
            /**
             * @description The payment link paid, if any.
             * @example plink_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            payment_link: string | null;
            /**
             * @description The mandate charged, if any.
             * @example mdt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            mandate: string | null;
            /**
             * @description The invoice paid, if any.
             * @example inv_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            invoice: string | null;
            /**
             * @description The customer, if any.
             * @example cus_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            customer: string | null;
            /** @description Your reference, carried from the link. */
            client_reference_id: string | null;
            /** @description The charge request's reference (payments.commands.v1: unique per account and mode). */
            reference: string | null;
            /** @description Where the receipt goes: the address the payer gave on the hosted checkout (payments only). Invoicing e-mails the receipt when the payment succeeds (GET /v1/transactions/:id/receipt). */
            receipt_email: string | null;
            /** @description The card: never the full number or the CVC. */
            payment_method: {
                /** @enum {string} */
                brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4: string;
                exp_month: number;
                exp_year: number;
            } | null;
            /**
             * @description Why it failed: a decline code; `authentication_required` when customer authentication (3-D Secure) was asked where nobody could give it (an off-session charge), failed, or not completed within the hour the payer has (the payment is then canceled at the processor); `processor_not_configured` for a live charge with no processor connected; `mandate_invalid` for a charge request on an unknown, inactive or other-currency mandate.
             * @enum {string|null}
             */
            failure_code: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "authentication_required" | "processing_error" | "processor_not_configured" | "mandate_invalid" | null;
            failure_message: string | null;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description A page of Transaction objects. */
        TransactionList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["Transaction"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/transactions";
        };
        /**
         * @example {
         *       "legal_name": "Zoë Łukasiewicz Ltd",
         *       "trading_name": "Zoë Studio",
         *       "address": {
         *         "line1": "ul. Świętokrzyska 12",
         *         "city": "Warszawa",
         *         "postal_code": "00-916",
         *         "country": "PL"
         *       },
         *       "tax_ids": [
         *         {
         *           "type": "eu_vat",
         *           "value": "PL5260250274"
         *         }
         *       ],
         *       "support_email": "billing@zoe.example",
         *       "brand_color": "#0a7c59",
         *       "statement_descriptor": "ZOE STUDIO",
         *       "payment_terms_days": 14
         *     }
         */
        UpdateAccount: {
            legal_name?: string | null;
            trading_name?: string | null;
            address?: components["schemas"]["AccountAddress"] | null;
            /** @description Replaces the list as a whole (at most 5). */
            tax_ids?: components["schemas"]["TaxId"][] | null;
            /** Format: email */
            support_email?: string | null;
            support_phone?: string | null;
            /** Format: uri */
            website?: string | null;
            /** @description `#rrggbb`; stored in lower case. */
            brand_color?: string | null;
            /** @description 5-22 characters of Latin letters, digits and punctuation with at least one letter; none of < > \ ' " *. */
            statement_descriptor?: string | null;
            invoice_footer?: string | null;
            /** @description Days an invoice is due after finalization unless it says otherwise. */
            payment_terms_days?: number | null;
            /** @description Receipts e-mailed to your customers (to the address a checkout payer gave, or the customer of the invoice paid): `payments` (a receipt with its number and PDF) and `refunds` (a refund notice). Merged: a field left out keeps its value; `null` turns both back on. */
            receipts?: components["schemas"]["ReceiptSwitches"] | null;
            /** @description Whether customers may cancel their subscriptions at the end of the period in the customer portal (default false; `null` is false). */
            portal_subscription_cancel?: boolean | null;
        };
        /**
         * @example {
         *       "phone": "+44 20 7946 0000",
         *       "metadata": {
         *         "tier": "gold"
         *       }
         *     }
         */
        UpdateCustomer: {
            name?: string;
            /** Format: email */
            email?: string;
            phone?: string;
            address?: components["schemas"]["Address"];
            tax_id?: string;
            /**
             * Format: currency
             * @description ISO 4217, any case: the currency the customer is billed in.
             */
            currency?: string;
            /** @description Your id for the customer; unique among the account's customers of this mode. */
            external_id?: string;
            /**
             * @description BCP 47 language tags, most preferred first (e.g. `["de-AT", "en"]`): pages, e-mails and PDFs use the first supported language (en, de, fr, es, pl), English otherwise.
             * @example [
             *       "de-AT",
             *       "en"
             *     ]
             */
            preferred_locales?: string[];
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "expires_at": "2027-01-31T23:59:59Z"
         *     }
         */
        UpdateEstimate: {
            /** @description At most 250 lines; replaced as a whole on update. */
            lines?: components["schemas"]["InvoiceLine"][];
            /** @description Taken off before tax, as on invoices; `null` removes it. */
            discount?: components["schemas"]["Discount"] | null;
            /**
             * Format: currency
             * @description ISO 4217, any case. Default: the customer's currency.
             */
            currency?: string;
            /** @description RFC 3339, in the future: a sent estimate not accepted by then becomes `expired`. `null` (default): it does not expire. */
            expires_at?: (string) | null;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "lines": [
         *         {
         *           "description": "Consulting",
         *           "quantity": 3,
         *           "unit_amount": 1500
         *         }
         *       ]
         *     }
         */
        UpdateInvoice: {
            /** @description At most 250 lines; replaced as a whole on update. */
            lines?: components["schemas"]["InvoiceLine"][];
            /** @description Taken off before tax; `null` removes it. */
            discount?: components["schemas"]["Discount"] | null;
            /**
             * Format: currency
             * @description ISO 4217, any case. Default: the customer's currency.
             */
            currency?: string;
            /** @enum {string} */
            collection_method?: "send_invoice" | "charge_automatically";
            /** @description send_invoice: due this many days after finalization (default 30). */
            days_until_due?: number;
            /** @description RFC 3339; instead of `days_until_due`. Must be in the future. */
            due_date?: string;
            description?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "website": "https://acme.test",
         *       "metadata": {
         *         "crm_id": "6735"
         *       }
         *     }
         */
        UpdateMerchant: {
            business_name?: string;
            /** Format: email */
            email?: string;
            /** @description ISO 3166-1 alpha-2, any case. */
            country?: string;
            /**
             * Format: currency
             * @description ISO 4217, any case.
             */
            default_currency?: string;
            /** @enum {string} */
            business_type?: "individual" | "company" | "non_profit" | "government_entity";
            /** Format: uri */
            website?: string;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "description": "Annual plan (2027)",
         *       "metadata": {
         *         "campaign": "spring"
         *       }
         *     }
         */
        UpdatePaymentLink: {
            description?: string;
            metadata?: components["schemas"]["Metadata"];
            /** @description `false` deactivates the link; `true` reactivates it unless completed or expired. */
            active?: boolean;
        };
        /**
         * @example {
         *       "description": "Stripe, main account"
         *     }
         */
        UpdateProcessorConnection: {
            description?: string;
            /** @description Replaces the stored credentials; the verification starts again. */
            credentials?: components["schemas"]["ProcessorCredentials"];
        };
        /**
         * @example {
         *       "status": "won"
         *     }
         */
        UpdateSandboxDispute: {
            /**
             * @description The new state: `under_review`, `won` or `lost` (docs/api.md Part 2, Disputes).
             * @enum {string}
             */
            status: "under_review" | "won" | "lost";
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "description": "Pro plan",
         *           "unit_amount": 2500,
         *           "currency": "GBP",
         *           "quantity": 2,
         *           "interval": "month",
         *           "interval_count": 1
         *         }
         *       ],
         *       "proration_behavior": "create_prorations"
         *     }
         */
        UpdateSubscription: {
            items?: components["schemas"]["SubscriptionItem"][];
            /** @enum {string} */
            proration_behavior?: "create_prorations" | "none" | "always_invoice";
            /** @description Prorate as of this instant (within the current period, not after now); default now. Pass the preview's to bill exactly what it showed. */
            proration_date?: string | number;
            /** @enum {string} */
            collection_method?: "charge_automatically" | "send_invoice";
            days_until_due?: number;
            /** @enum {string} */
            dunning_end_state?: "unpaid" | "canceled";
            cancel_at_period_end?: boolean;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "description": "Order system",
         *       "disabled": false
         *     }
         */
        UpdateWebhookEndpoint: {
            url?: string;
            enabled_events?: string[] | [
                "*"
            ] | unknown;
            description?: string;
            /** @description `true` disables the endpoint; `false` enables it again. */
            disabled?: boolean;
            metadata?: components["schemas"]["Metadata"];
        };
        /**
         * @example {
         *       "file": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPgqokEAAFzAOBIgglpAAAAAElFTkSuQmCC"
         *     }
         */
        UploadLogo: {
            /** @description The image in base64 (RFC 4648: padded, no line breaks): PNG or JPEG, at most 512 KiB decoded. */
            file: string;
        };
        /** @description The delivery of one event to one endpoint, with every attempt. */
        WebhookDelivery: {
            /**
             * @description Unique identifier.
             * @example del_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "webhook_delivery";
            livemode: boolean;
            /**
             * @description The endpoint delivered to.
             * @example we_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            endpoint: string;
            /**
             * @description The event delivered; also the `webhook-id` header.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            event: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempt_count: number;
            /**
             * Format: date-time
             * @description When the next attempt is due, while pending.
             * @example 2026-01-15T12:00:00.000Z
             */
            next_attempt_at: Timestamp | null;
            /**
             * Format: date-time
             * @description When the last attempt was made.
             * @example 2026-01-15T12:00:00.000Z
             */
            last_attempt_at: Timestamp | null;
            /** @description Every attempt, oldest first. */
            attempts: {
                /**
                 * Format: date-time
                 * @description When the request was sent.
                 * @example 2026-01-15T12:00:00.000Z
                 */
                attempted_at: Timestamp;
                /** @description The HTTP status answered, if any. */
                status_code: number | null;
                latency_ms: number;
                /** @description The first 1 KiB of the response body. */
                response_excerpt: string | null;
                /** @description Why no answer was received (time-out, refused target, ...). */
                error: string | null;
            }[];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
        };
        /** @description A page of WebhookDelivery objects. */
        WebhookDeliveryList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /** @description The list endpoint. */
            url: string;
        };
        /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
        WebhookEndpoint: {
            /**
             * @description Unique identifier.
             * @example we_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            livemode: boolean;
            /**
             * Format: uri
             * @description Where events are POSTed.
             */
            url: string;
            description: string | null;
            /**
             * @description The event types delivered, or `["*"]` for every type of the account's groupings.
             * @example [
             *       "merchant.onboarding.updated"
             *     ]
             */
            enabled_events: string[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            /** @description Why the endpoint was disabled. */
            disabled_reason: string | null;
            /** @description The signing secret; returned only when the endpoint is created or its secret rotated. */
            secret?: string;
            metadata: components["schemas"]["Metadata"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-01-15T12:00:00.000Z
             */
            updated_at: Timestamp;
        };
        /** @description `webhook_endpoint.disabled` (docs/api.md §7). */
        WebhookEndpointDisabledEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "webhook_endpoint.disabled";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The WebhookEndpoint after the change, as its own endpoint returns it. */
                object: components["schemas"]["WebhookEndpoint"];
            };
        };
        /** @description A page of WebhookEndpoint objects. */
        WebhookEndpointList: {
            /** @constant */
            object: "list";
            /** @description Newest first. */
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description Whether another page follows this one. */
            has_more: boolean;
            /**
             * @description The list endpoint.
             * @constant
             */
            url: "/v1/webhooks";
        };
        /** @description `webhook_endpoint.test` (docs/api.md §7). */
        WebhookEndpointTestEvent: {
            /**
             * @description Unique identifier; also the `webhook-id` of its deliveries.
             * @example evt_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "webhook_endpoint.test";
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-01-15T12:00:00.000Z
             */
            created_at: Timestamp;
            livemode: boolean;
            /**
             * @description The account the event belongs to.
             * @example acct_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            account: string;
            /**
             * @description The merchant concerned, for payments events.
             * @example mer_4fQk2nT8bW1xZc9LmP0aRs7e
             */
            merchant?: string;
            data: {
                /** @description The WebhookEndpoint after the change, as its own endpoint returns it. */
                object: components["schemas"]["WebhookEndpoint"];
            };
        };
    };
    responses: {
        /** @description Bad request: `parameter_missing`, `parameter_invalid`, `parameter_unknown`, `invalid_json`, `currency_unsupported`, `test_mode_only`, `webhook_signature_invalid`. */
        BadRequest: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description No valid API key: `authentication_required`, `invalid_api_key`. */
        Unauthorized: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Not allowed: `insufficient_scope`, `grouping_not_enabled`, `account_suspended`. */
        Forbidden: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Not found: `resource_missing`, `route_not_found`, `service_not_installed`. */
        NotFound: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Conflict: `invalid_state_transition`, `invoice_incomplete`, `transaction_not_refundable`, `merchant_not_active`, `processor_not_configured`, `processor_secrets_unavailable`, `idempotency_request_in_progress`, `resource_busy`, `resource_conflict`. */
        Conflict: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Body over 1 MiB: `payload_too_large`. */
        PayloadTooLarge: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Body is not JSON: `unsupported_media_type`. */
        UnsupportedMediaType: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Unprocessable: `refund_exceeds_remaining`, `idempotency_key_reused`. */
        UnprocessableContent: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Too many requests: `rate_limited`. */
        TooManyRequests: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Internal error: `internal_error`. */
        InternalError: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Service unavailable: `upstream_unavailable`. */
        ServiceUnavailable: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Gateway time-out: `upstream_timeout`. */
        GatewayTimeout: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: {
        /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Identifies the request (also `request_id` in error bodies); quote it when asking the operator. */
        "Request-Id": string;
        /** @description `true` when this answer is the stored response to an earlier request with the same `Idempotency-Key`. */
        "Idempotent-Replayed": "true";
        /** @description The key's quota (draft-ietf-httpapi-ratelimit-headers): `"default";q=<requests>;w=1`, requests per second. Sent when the key is valid. */
        "RateLimit-Policy": string;
        /** @description What is left of the quota: `"default";r=<remaining>;t=<seconds until the next request is allowed>`. Sent when the key is valid. */
        RateLimit: string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "account.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The seller's identity on every page, document and e-mail the account's customers receive. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "account.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateAccount"];
            };
        };
        responses: {
            /** @description The seller's identity on every page, document and e-mail the account's customers receive. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "account.uploadLogo": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UploadLogo"];
            };
        };
        responses: {
            /** @description The seller's identity on every page, document and e-mail the account's customers receive. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "account.deleteLogo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The seller's identity on every page, document and e-mail the account's customers receive. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.list": {
        parameters: {
            query?: {
                /** @description Only customers with this e-mail address (exact, case-insensitive). */
                email?: string;
                /** @description Only the customer with this external id. */
                external_id?: string;
                /** @description Include archived (deleted) customers: `true` or `false` (default). */
                include_archived?: "true" | "false";
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Customer objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateCustomer"];
            };
        };
        responses: {
            /** @description Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateCustomer"];
            };
        };
        responses: {
            /** @description Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.billingHistory": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a customer's billing history: invoices, payments and refunds, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingHistory"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "customers.createPortalSession": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreatePortalSession"];
            };
        };
        responses: {
            /** @description A customer's access to the customer portal: open and paid invoices, subscriptions, saved cards. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "disputes.list": {
        parameters: {
            query?: {
                /** @description Only disputes in this state. */
                status?: "needs_response" | "under_review" | "won" | "lost";
                /** @description Only disputes of this payment. */
                transaction?: string;
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Dispute objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DisputeList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "disputes.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A payer's chargeback of a payment, as the processor reports it. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "disputes.updateSandbox": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSandboxDispute"];
            };
        };
        responses: {
            /** @description A payer's chargeback of a payment, as the processor reports it. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.list": {
        parameters: {
            query?: {
                /** @description Only estimates in this state: draft, sent, accepted, declined, expired, canceled, invoiced. */
                status?: "draft" | "sent" | "accepted" | "declined" | "expired" | "canceled" | "invoiced";
                /** @description Only this customer's estimates. */
                customer?: string;
                /** @description Only estimates or only quotes. */
                kind?: "estimate" | "quote";
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Estimate objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EstimateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEstimate"];
            };
        };
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateEstimate"];
            };
        };
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.accept": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.cancel": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.convert": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ConvertEstimate"];
            };
        };
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.decline": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.pdf": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "estimates.send": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An estimate or quote: an offer the customer accepts or declines, then converted into an invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "events.list": {
        parameters: {
            query?: {
                /** @description An event type, or a family such as `invoice.*`. */
                type?: string;
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Event objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "events.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Something that happened in the account; delivered to webhook endpoints and kept for 30 days. One schema per `type`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "events.stream": {
        parameters: {
            query?: {
                /** @description Only these event types, comma-separated (default: every type). */
                types?: string;
                /** @description Resume right after this event (what the `Last-Event-ID` header also says; the header wins). Default: from now. */
                last_event_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Something that happened in the account; delivered to webhook endpoints and kept for 30 days. One schema per `type`. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @description The id of the object in `data`; `Last-Event-ID` resumes after it. */
                        id: string;
                        /** @description The `type` of the object in `data`. */
                        event: string;
                        data: string;
                        /** @description Reconnection delay in milliseconds. */
                        retry?: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.list": {
        parameters: {
            query?: {
                /** @description Only invoices in this state: draft, open, paid, void, uncollectible. */
                status?: "draft" | "open" | "paid" | "void" | "uncollectible";
                /** @description Only this customer's invoices. */
                customer?: string;
                /** @description Only this subscription's invoices. */
                subscription?: string;
                /** @description Only invoices due in this range: `due_date[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                due_date?: components["schemas"]["RangeFilter"];
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Invoice objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvoice"];
            };
        };
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateInvoice"];
            };
        };
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A deleted draft invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedInvoice"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.finalize": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.markUncollectible": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.pay": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PayInvoice"];
            };
        };
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.pdf": {
        parameters: {
            query?: {
                /** @description `facturx`: a Factur-X / ZUGFeRD PDF/A-3b with the CII XML (profile EN 16931) embedded as `factur-x.xml`. Default: the plain PDF. */
                format?: "facturx";
            };
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.send": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.ubl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "invoices.void": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bill to a customer. Totals are computed by the server. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "mandates.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Mandate objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MandateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "mandates.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Permission to charge a stored card again: every cycle of a recurring link, or per invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "mandates.cancel": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Permission to charge a stored card again: every cycle of a recurring link, or per invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "mandates.chargeSandbox": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Permission to charge a stored card again: every cycle of a recurring link, or per invoice. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "merchants.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Merchant objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "merchants.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateMerchant"];
            };
        };
        responses: {
            /** @description A business that accepts payments. An account has a default merchant and may onboard more. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "merchants.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A business that accepts payments. An account has a default merchant and may onboard more. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "merchants.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateMerchant"];
            };
        };
        responses: {
            /** @description A business that accepts payments. An account has a default merchant and may onboard more. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "paymentLinks.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of PaymentLink objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentLinkList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "paymentLinks.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePaymentLink"];
            };
        };
        responses: {
            /** @description A shareable URL of a hosted checkout page that takes card payments for a fixed amount or list of items. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "paymentLinks.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A shareable URL of a hosted checkout page that takes card payments for a fixed amount or list of items. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "paymentLinks.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdatePaymentLink"];
            };
        };
        responses: {
            /** @description A shareable URL of a hosted checkout page that takes card payments for a fixed amount or list of items. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ProcessorConnection objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnectionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProcessorConnection"];
            };
        };
        responses: {
            /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnection"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateProcessorConnection"];
            };
        };
        responses: {
            /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.disable": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "processorConnections.verify": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's credentials for a payment processor in one mode; live payments go to the active live connection. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorConnection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "refunds.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Refund objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "refunds.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRefund"];
            };
        };
        responses: {
            /** @description A full or partial refund of a succeeded payment. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "refunds.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A full or partial refund of a succeeded payment. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "requestLogs.list": {
        parameters: {
            query?: {
                /** @description How many requests to return, newest first, 1 to 100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of RequestLog objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestLogList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "requestLogs.stream": {
        parameters: {
            query?: {
                /** @description Resume after this position (the `id:` of the last frame received; the `Last-Event-ID` header also says it and wins). Default: from now. */
                last_event_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An API request of the account, kept for 24 hours. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @description The id of the object in `data`; `Last-Event-ID` resumes after it. */
                        id: string;
                        /** @description The `type` of the object in `data`. */
                        event: string;
                        data: string;
                        /** @description Reconnection delay in milliseconds. */
                        retry?: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.list": {
        parameters: {
            query?: {
                status?: "trialing" | "active" | "incomplete" | "incomplete_expired" | "past_due" | "unpaid" | "canceled" | "paused";
                customer?: string;
                test_clock?: string;
                current_period_end?: components["schemas"]["RangeFilter"];
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Subscription objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubscription"];
            };
        };
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateSubscription"];
            };
        };
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.cancel": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelSubscription"];
            };
        };
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.pause": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.preview": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateSubscription"];
            };
        };
        responses: {
            /** @description What a change to a subscription bills, computed by the same code as the change. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "subscriptions.resume": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recurring billing of a customer: one invoice per period, computed from the anchor. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "testClocks.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of TestClock objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClockList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "testClocks.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTestClock"];
            };
        };
        responses: {
            /** @description A frozen time for sandbox customers; advancing it runs their billing up to the new time. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "testClocks.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A frozen time for sandbox customers; advancing it runs their billing up to the new time. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "testClocks.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A frozen time for sandbox customers; advancing it runs their billing up to the new time. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "testClocks.advance": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdvanceTestClock"];
            };
        };
        responses: {
            /** @description A frozen time for sandbox customers; advancing it runs their billing up to the new time. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "transactions.list": {
        parameters: {
            query?: {
                /** @description Only transactions of this merchant. */
                merchant?: string;
                type?: "payment" | "refund";
                status?: "pending" | "requires_action" | "succeeded" | "failed";
                /** @description Only transactions of this payment link. */
                payment_link?: string;
                /** @description ISO 4217, any case. */
                currency?: string;
                /** @description Only amounts in this range (minor units): `amount[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                amount?: components["schemas"]["AmountRange"];
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Transaction objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "transactions.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One money movement, a payment or a refund, backed by double-entry ledger entries. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "transactions.receipt": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One money movement, a payment or a refund, backed by double-entry ledger entries. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "transactions.testPayment": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPayment"];
            };
        };
        responses: {
            /** @description One money movement, a payment or a refund, backed by double-entry ledger entries. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.list": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of WebhookEndpoint objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.update": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A deleted webhook endpoint. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.deliveries": {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description Cursor: the id of the last object of the previous page; returns older ones. */
                starting_after?: string;
                /** @description Cursor: the id of the first object of the next page; returns newer ones. */
                ending_before?: string;
                /** @description Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`. */
                created?: components["schemas"]["RangeFilter"];
            };
            header?: never;
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of WebhookDelivery objects. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.retry": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                delivery_id: string;
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery of one event to one endpoint, with every attempt. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.rotate": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.test": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery of one event to one endpoint, with every attempt. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.disableSandbox": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request replays the first answer (`Idempotent-Replayed: true`); with another request it is 422 `idempotency_key_reused`; while the first still runs, 409 `idempotency_request_in_progress`. Scoped to the account and mode, kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of the object. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where and which events are delivered, signed with the Standard Webhooks scheme. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    "webhooks.account.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.customer.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.customer.deleted": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerDeletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.customer.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.dispute.closed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeClosedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.dispute.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.dispute.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.accepted": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateAcceptedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.declined": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateDeclinedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.expired": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateExpiredEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.invoiced": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateInvoicedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.estimate.sent": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateSentEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.finalized": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceFinalizedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.marked_uncollectible": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceMarkedUncollectibleEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.overdue": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceOverdueEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.paid": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoicePaidEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.payment_failed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoicePaymentFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.sent": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceSentEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.invoice.voided": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceVoidedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.mandate.canceled": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MandateCanceledEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.mandate.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MandateCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.mandate.failed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MandateFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.mandate.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MandateUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.merchant.onboarding.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantOnboardingUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment.failed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment.requires_action": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRequiresActionEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment.succeeded": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentSucceededEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment_link.completed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentLinkCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment_link.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentLinkCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment_link.expired": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentLinkExpiredEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.payment_link.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentLinkUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.refund.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.refund.failed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.refund.succeeded": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundSucceededEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.canceled": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCanceledEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.past_due": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionPastDueEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.paused": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionPausedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.renewed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionRenewedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.resumed": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionResumedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.trial_will_end": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionTrialWillEndEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.subscription.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.webhook_endpoint.disabled": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointDisabledEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhooks.webhook_endpoint.test": {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so a receiver can drop duplicates. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse one more than 5 minutes off. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointTestEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx status). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
