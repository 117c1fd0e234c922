import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import { allRoutes } from '../registry.js';
import { allControlRoutes } from '../control/router.js';
import { buildOpenApi } from './document.js';
import { buildControlOpenApi } from './control-document.js';
import type { JsonSchema } from './schemas.js';
import { toYaml } from './yaml.js';
import { REDOCLY_CONFIG } from './lint-config.js';

// GET /openapi.yaml and /openapi.json (the merchant API), GET /_emulator/openapi.yaml and
// /_emulator/openapi.json (the control API), and the lint configuration GET /redocly.yaml that
// goes with both. Each document is built on its first request, once the server knows its own
// URL, from the routes the gateway and the control router mounted; routes do not change while
// it runs.

type Rendered = { yaml: string; json: string };

function served(build: () => JsonSchema) {
  let cached: Rendered | undefined;
  const render = (): Rendered => {
    if (!cached) {
      const doc = build();
      cached = { yaml: toYaml(doc), json: JSON.stringify(doc, null, 2) };
    }
    return cached;
  };
  return {
    yaml: (_req: Request, res: Response) => void res.type('application/yaml; charset=utf-8').send(render().yaml),
    json: (_req: Request, res: Response) => void res.type('application/json; charset=utf-8').send(render().json),
  };
}

export function openApiHandlers(services: Services) {
  const merchant = served(() => buildOpenApi(allRoutes(), { serverUrl: services.config.baseUrl }));
  const control = served(() => buildControlOpenApi(allControlRoutes(), { serverUrl: services.config.baseUrl }));
  return {
    yaml: merchant.yaml,
    json: merchant.json,
    controlYaml: control.yaml,
    controlJson: control.json,
    /** The lint configuration that goes with the documents (lint-config.ts). */
    lintConfig: (_req: Request, res: Response) => void res.type('application/yaml; charset=utf-8').send(REDOCLY_CONFIG),
  };
}
