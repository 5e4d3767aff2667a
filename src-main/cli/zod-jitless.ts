import { config } from 'zod/v4/core';

// Imported by the CLI's entry (main.ts) before the modules that build the contract's zod schemas.
// zod reads `jitless` when it builds an object schema, not when it parses: one built before this ran
// compiles a fast path of its own (`new Function`) at its first parse, whatever is set after. A
// terminal run parses each schema a few times, so compiling costs more than it saves before the first
// model request (docs/cli.md#start-up). Set as a module of its own, so that it runs before any module
// that builds a schema is evaluated.
config({ jitless: true });
