import { config } from 'zod/v4/core';

// The Content-Security-Policy allows no eval: zod parses without compiling its object schemas into
// functions, and skips its probe for eval, which the browser would report as a violation. A module of its
// own, imported first by main.tsx, so it runs before any module that parses while it loads.
config({ jitless: true });
