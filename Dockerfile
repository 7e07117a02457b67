# One image for every app; APP selects which one runs (gateway, payments, invoicing, webhooks,
# or embedded for the all-in-one default). Node 24 (Active LTS). Runs as the unprivileged `node`
# user under tini (signals reach Node, zombies are reaped); /data is its writable directory
# (the embedded database, the mail fallback folder), 0700.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY apps/gateway/package.json apps/gateway/
COPY apps/payments/package.json apps/payments/
COPY apps/invoicing/package.json apps/invoicing/
COPY apps/webhooks/package.json apps/webhooks/
COPY apps/embedded/package.json apps/embedded/
COPY bench/package.json bench/
COPY packages/sdk/package.json packages/sdk/
COPY packages/cli/package.json packages/cli/
COPY examples/checkout/package.json examples/checkout/
# patch-package: kafkajs 2.2.4 is patched (patches/; the postinstall that --ignore-scripts skips).
COPY patches patches
RUN npm install --no-audit --no-fund --ignore-scripts && npx patch-package --error-on-fail
COPY libs libs
COPY apps apps
# The SDK, the CLI and the example are workspaces of the lockfile: built here, not shipped.
COPY packages packages
COPY examples examples
RUN npx turbo run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data \
  && chown 1000:1000 /data \
  && chmod 0700 /data
ENV NODE_ENV=production PAYGRID_MODE=distributed HOST=0.0.0.0 PORT=3000 DATA_DIR=/data MAIL_DIR=/data/mail
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/libs libs
COPY --from=build /app/apps apps
COPY scripts/start-app.mjs scripts/healthcheck.mjs scripts/
# The node image's `node` user, by id so that any runtime can resolve it.
USER 1000:1000
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/start-app.mjs"]
