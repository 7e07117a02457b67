# One image for every app; APP selects which one runs (gateway, payments, invoicing,
# webhooks, or embedded for the all-in-one default).
FROM node:20-bookworm-slim AS build
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
RUN npm install --no-audit --no-fund --ignore-scripts
COPY libs libs
COPY apps apps
RUN npx turbo run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PAYGRID_MODE=distributed HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["sh", "-c", "exec node apps/${APP:?set APP to gateway, payments, invoicing, webhooks or embedded}/dist/main.js"]
