/* Umbrella header for the wayland-scanner output (see scripts/generate-protocols.sh).
 * Written by hand; everything else in this target is generated. */
#include "xdg-shell-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "input-timestamps-unstable-v1-client-protocol.h"
