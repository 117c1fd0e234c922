// The emulator's way to the files it reads from its package: contract/assets.ts, shared with the
// CLI (which reads the shipped scenarios the same way).
export * from '../contract/assets.js';
