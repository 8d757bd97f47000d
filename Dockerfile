# One image, both roles: the API (default command) and the worker (`npm run start:worker`).
# Node 24 is the supported LTS line; Node 20 reached end of life in April 2026.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# A dev dependency of the lock file (the generated-client test's tools); npm ci needs its manifest.
COPY test/client-example/package.json ./test/client-example/
RUN npm ci
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
# The service's sources only: the development launcher (tools/, npm start and npm run demo) is neither built
# nor shipped (tools/launcher/production-image.spec.ts).
COPY src ./src
COPY libs ./libs
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# Node flags come with the npm scripts (package.json's config.apiNodeFlags and config.workerNodeFlags), as for
# `npm start` and the bench.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WORKER_HTTP_PORT=3001
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node scripts/healthcheck.js ./scripts/
USER node
EXPOSE 3000 3001
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["node", "scripts/healthcheck.js"]
CMD ["npm", "run", "start:api"]
