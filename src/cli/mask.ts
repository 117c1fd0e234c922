// Keys and secrets are never printed in full (`svc_test_…a1b2`): the same masking as the
// emulator's request log.
export { maskSecret } from '../../contract/keys.js';
