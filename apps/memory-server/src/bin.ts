#!/usr/bin/env node
import { main } from "./main.js";

// Exit explicitly: a provider's keep-alive sockets must not hold the process after shutdown.
process.exit(await main(process.argv.slice(2)));
