// The library entry of the svc package: what a merchant server can import.
export { signPayload, verifySignature, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS } from '../contract/signature.js';
export type { VerifyOptions, VerifyResult, VerifyFailure } from '../contract/signature.js';
