// The library entry of the svc package: what a merchant server can import.
export { signPayload, verifySignature, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS } from './webhooks/signature.js';
export type { VerifyOptions, VerifyResult, VerifyFailure } from './webhooks/signature.js';
