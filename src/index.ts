// The library entry of the svc package: what a merchant server can import.
export { signPayload, verifySignature, generateTestHeaderString, generateTestDelivery, SIGNATURE_HEADER, EVENT_HEADER, DELIVERY_HEADER, DEFAULT_TOLERANCE_SECONDS } from '../contract/signature.js';
export type { VerifyOptions, VerifyResult, VerifyFailure, TestHeaderOptions, TestDelivery, TestDeliveryHeaders, TestDeliveryOfEvent, TestDeliveryOfPayload } from '../contract/signature.js';
