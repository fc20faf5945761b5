// Preloaded (`node --import`) into the built service by test/deploy: any TypeScript loader or TypeScript
// source the process would load, through import (ESM hooks) or require (CommonJS), stops it with an error.
import Module, { register } from "node:module";
import { refusal } from "./refuse-typescript-rule.mjs";

register("./refuse-typescript-hooks.mjs", import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const file = resolveFilename.call(this, request, ...rest);
  const refused = refusal(request, file);
  if (refused) throw new Error(refused);
  return file;
};
