/**
 * The first part's bindings (functions, constants) that the parts use, each at a place the build
 * (build.mjs) gives it and writes into each part: a part reads them here instead of carrying its
 * own copy, whose state (the language, the settings, a turned-off module) would be another one.
 * Empty when the code runs from source (tests), where nothing is split.
 */
export const SHARED: readonly unknown[] = [];
