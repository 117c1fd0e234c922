import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import { allRoutes } from '../registry.js';
import { buildOpenApi } from './document.js';
import { toYaml } from './yaml.js';
import { REDOCLY_CONFIG } from './lint-config.js';

// GET /openapi.yaml (and /openapi.json, and the lint configuration GET /redocly.yaml): built on first request, once the server knows its
// own URL, from the routes the gateway mounted; routes do not change while it runs.

export function openApiHandlers(services: Services) {
  let cached: { yaml: string; json: string } | undefined;
  const build = () => {
    if (!cached) {
      const doc = buildOpenApi(allRoutes(), { serverUrl: services.config.baseUrl });
      cached = { yaml: toYaml(doc), json: JSON.stringify(doc, null, 2) };
    }
    return cached;
  };
  return {
    yaml: (_req: Request, res: Response) => void res.type('application/yaml; charset=utf-8').send(build().yaml),
    json: (_req: Request, res: Response) => void res.type('application/json; charset=utf-8').send(build().json),
    /** The lint configuration that goes with the document (lint-config.ts). */
    lintConfig: (_req: Request, res: Response) => void res.type('application/yaml; charset=utf-8').send(REDOCLY_CONFIG),
  };
}
