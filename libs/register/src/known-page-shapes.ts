/**
 * The shapes (pageShape) of the register pages in ../fixtures, shipped with the code: a page of one of these shapes
 * is a layout the parser was written for, never news. page-shape.spec.ts checks this list against the fixtures;
 * a new fixture adds its shape here.
 */
export const KNOWN_PAGE_SHAPES: ReadonlySet<string> = new Set(['30162992236e7e74', '80c053bce16f09f9', 'a8d390edd1784475', 'd82f1b87b02ab609']);
