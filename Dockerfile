# The svc emulator as a container image (docs/containers.md).
#
#   docker build -t svc-emulator .
#   docker run --rm -p 4242:4242 -v svc-data:/data svc-emulator \
#     svc emulator start --host 0.0.0.0 --data-dir /data --public-url http://localhost:4242
#
# Two stages: `build` compiles TypeScript with the dev dependencies; the runtime stage has
# the production dependencies, the compiled dist/, bin/svc.js and the fixtures, and no
# compiler. This image was never built where it was written (no Docker engine there);
# test/container/dockerfile.test.ts runs its CMD and HEALTHCHECK as processes instead.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency's install script is needed to build; tsc is run by hand below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY contract ./contract
COPY src ./src
COPY emulator ./emulator
COPY scripts/build-bundles.mjs ./scripts/build-bundles.mjs
COPY scripts/lib ./scripts/lib
# The package's own build (what `npm pack` ships): dist/{contract,src,emulator}, no tests, and
# the bundles bin/svc.js runs (dist/cli; scripts/build-bundles.mjs).
RUN npx tsc -p tsconfig.build.json && node scripts/build-bundles.mjs

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, no install scripts (the code is already compiled; nothing the
# emulator runs needs one).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# bin/package.json makes bin/svc.js CommonJS.
COPY bin/svc.js bin/package.json ./bin/
COPY fixtures ./fixtures
# `svc` on the PATH (node follows the link, so bin/svc.js finds ../dist and ../package.json);
# /data belongs to the unprivileged user before it becomes a volume, so a new named volume
# starts out writable by it.
RUN chmod 0755 bin/svc.js \
 && ln -s /app/bin/svc.js /usr/local/bin/svc \
 && mkdir /data \
 && chown node:node /data

USER node
VOLUME /data
# The health check (and `docker exec … svc emulator …`) reaches the emulator through the
# container's own loopback: no Host allow-list entry and no control token needed there.
ENV SVC_BASE_URL=http://127.0.0.1:4242
EXPOSE 4242

# One request per check while healthy; --wait rides out a blip of up to 4 s, inside Docker's
# own 5 s limit, and says why it failed in `docker inspect`'s health log.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["svc", "emulator", "status", "--wait", "--timeout", "4s"]

# Every start setting comes from the environment (docs/containers.md), these two included, so a
# service container (which takes no command) can still change them; a flag on the command line wins.
ENV SVC_HOST=0.0.0.0
ENV SVC_DATA_DIR=/data

# SIGTERM (docker stop) finishes requests and flushes the store before exiting.
CMD ["svc", "emulator", "start"]
