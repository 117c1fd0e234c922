import type { Request } from 'express';

// Reading a urlencoded page form: every field is a string or absent, never an array or object
// (the parser runs with `extended: false`, and a repeated field is refused as absent).
export function formField(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}
