// CivetWeb, the embeddable HTTP and WebSocket server, from Debian's libcivetweb-dev (a shared
// library only; Debian ships no pkg-config file for it). `stackplay-studio` serves its page with it.
#ifndef STACKPLAY_CCIVETWEB_SHIM_H
#define STACKPLAY_CCIVETWEB_SHIM_H

#include <civetweb.h>

#endif
