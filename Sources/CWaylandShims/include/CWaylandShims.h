#ifndef MERIDIAN_WAYLAND_SHIMS_H
#define MERIDIAN_WAYLAND_SHIMS_H
/* Small C helpers for the Swift Wayland layer.
 * - The *_interface globals import into Swift as immutable values; taking their address from
 *   Swift can yield a stack copy in release builds, so we return the real address from C.
 * - memfd_create and its seals need _GNU_SOURCE, which Swift's Glibc module lacks. */
#include <stddef.h>
#include <wayland-client.h>
#include <wayland-cursor.h>
#include "CProtocols.h"

#define MERIDIAN_IFACE(n) \
    static inline const struct wl_interface *meridian_##n##_interface(void) { return &n##_interface; }
MERIDIAN_IFACE(wl_compositor)
MERIDIAN_IFACE(wl_shm)
MERIDIAN_IFACE(wl_seat)
MERIDIAN_IFACE(wl_output)
MERIDIAN_IFACE(xdg_wm_base)
MERIDIAN_IFACE(zxdg_decoration_manager_v1)
MERIDIAN_IFACE(wp_viewporter)
MERIDIAN_IFACE(wp_fractional_scale_manager_v1)
MERIDIAN_IFACE(zwp_pointer_gestures_v1)
MERIDIAN_IFACE(wp_presentation)
MERIDIAN_IFACE(zwp_text_input_manager_v3)
MERIDIAN_IFACE(zwp_input_timestamps_manager_v1)
#undef MERIDIAN_IFACE

/* Creates an anonymous, sealed shared-memory file of `size` bytes; returns -1 and sets errno on failure. */
int meridian_create_shm_file(size_t size);

/* A non-blocking, close-on-exec signalfd for SIGTERM and SIGINT (which it also blocks), so the
 * main loop can end cleanly from poll; returns -1 on failure. */
int meridian_termination_signal_fd(void);

/* Blocks SIGTERM and SIGINT in the calling thread and every thread it starts afterwards, so
 * they can only arrive through the signalfd. Call before starting any thread. */
int meridian_block_termination_signals(void);

/* The name of an interface, for error messages. */
static inline const char *meridian_proxy_class(void *proxy) { return wl_proxy_get_class((struct wl_proxy *)proxy); }

#endif
