// Test only (PAYMENTS_TEST_EXIT_AFTER_CHARGE, refused with NODE_ENV=production): live
// connectors that kill their own process with SIGKILL as soon as the processor has answered a
// charge, before the intent saga records it. The crash suite (tests/distributed/
// processor-crash.test.ts) uses it to stop the service exactly between the processor call and
// tx2, the window the saga's recovery and the processor's webhooks must close without a second
// charge. Nothing else may reach for this: it is wired in payments.ts from the parsed config.

import type { PaymentConnector } from './connector';
import type { LiveConnectors } from './connector-router';

export function crashAfterCharge(live: LiveConnectors, kill: () => void): LiveConnectors {
  return {
    configuredAccounts: () => live.configuredAccounts(),
    async forAccount(accountId) {
      const connector = await live.forAccount(accountId);
      if (!connector) return connector;
      // Spelled out, as below: a spread copies no class methods.
      const optional = {
        lookupRefund: connector.lookupRefund?.bind(connector),
        saveCard: connector.saveCard?.bind(connector),
        lookupSavedCard: connector.lookupSavedCard?.bind(connector),
      };
      const dying: PaymentConnector = {
        ...connector,
        charge: async (request) => {
          await connector.charge(request);
          kill();
          throw new Error('unreachable: the process was killed after the charge');
        },
        chargeStored: async (request) => {
          await connector.chargeStored(request);
          kill();
          throw new Error('unreachable: the process was killed after the charge');
        },
        refund: (request) => connector.refund(request),
        ...Object.fromEntries(Object.entries(optional).filter(([, method]) => method)),
        // Spelled out: a spread copies no class methods.
        lookup: (request) => connector.lookup(request),
        cancelAuthentication: (request) => connector.cancelAuthentication(request),
      };
      return dying;
    },
  };
}
