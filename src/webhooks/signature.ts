// The package's `./webhooks` entry: the signature scheme lives in the contract (the emulator
// signs with the same code), and is re-exported here for merchants' servers.
export * from '../../contract/signature.js';
