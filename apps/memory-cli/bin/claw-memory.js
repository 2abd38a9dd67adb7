#!/usr/bin/env node
// The claw-memory command: a committed file, so that installing the package links the command before
// anything is built; it runs the compiled program in dist/.
import "../dist/bin.js";
