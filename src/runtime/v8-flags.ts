import { setFlagsFromString } from 'node:v8';

// Imported first by both entry points, so that the flags hold before any code is compiled.
// Under load V8 lets the old generation grow to about four times what is live before it collects,
// which took the API to 260 MiB with 40 MiB live; growing by 25% keeps each process within its
// 150 MiB. The young generation's size can only be set on the command line: see NODE_OPTIONS in the
// Dockerfile.
setFlagsFromString('--heap-growing-percent=25');
// V8 allocates objects straight in the old generation from code whose objects it saw survive a young
// collection. Under load that was request-scoped objects (bodies, headers, Redis replies) still in
// flight at a collection: they died there a moment later, and the API ran a major collection (6-10 ms
// pause) every 0.7 s instead of every 1.7 s.
setFlagsFromString('--no-allocation-site-pretenuring');
// WebAssembly (undici's HTTP parser, in the worker) is compiled by the baseline compiler only. V8's
// optimising compiler took 39 MB of malloc'd memory compiling it, which glibc kept: the worker reached
// its 150 MiB while it parsed a few hundred register answers a second, a load the baseline code carries.
setFlagsFromString('--liftoff-only');
