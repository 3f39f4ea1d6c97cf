/*
 * Seat "seat0": injected touch, pointer, keyboard and pinch gestures, and its capabilities.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_pointer_gestures_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor.h"

static const uint32_t ALL_CAPS =
	WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_TOUCH;

static uint32_t event_time(void) {
	return (uint32_t)now_ms();
}

/* A touch event's time: whole ms for wl_touch, the same instant to the ns first sent to the
 * client's input-timestamps subscriptions (they precede the event they stamp). */
static uint32_t touch_time(struct wlr_surface *surface) {
	int64_t ns = now_ns();
	if (surface != NULL && surface->resource != NULL) {
		input_timestamps_touch(wl_resource_get_client(surface->resource), ns);
	}
	return (uint32_t)((uint64_t)ns / 1000000u);
}

static void handle_key(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, keyboard_key);
	struct wlr_event_keyboard_key *event = data;
	wlr_seat_set_keyboard(s->seat, s->keyboard);
	wlr_seat_keyboard_notify_key(s->seat, event->time_msec, event->keycode, event->state);
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, keyboard_modifiers);
	wlr_seat_set_keyboard(s->seat, s->keyboard);
	wlr_seat_keyboard_notify_modifiers(s->seat, &s->keyboard->keyboard->modifiers);
}

void input_setup(struct server *s) {
	s->seat = wlr_seat_create(s->display, "seat0");
	wlr_seat_set_capabilities(s->seat, ALL_CAPS);
	/* wlr_seat_set_keyboard needs an input device in 0.15; a headless one carries the keymap. */
	s->keyboard = wlr_headless_add_input_device(s->backend, WLR_INPUT_DEVICE_KEYBOARD);
	if (s->keyboard != NULL && s->keyboard->keyboard != NULL) {
		struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
		struct xkb_keymap *keymap = context
			? xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
		if (keymap != NULL) {
			wlr_keyboard_set_keymap(s->keyboard->keyboard, keymap);
		} else {
			fprintf(stderr, "no default xkb keymap (is xkb-data installed?); keys will not work\n");
		}
		xkb_keymap_unref(keymap);
		xkb_context_unref(context);
		s->keyboard_key.notify = handle_key;
		wl_signal_add(&s->keyboard->keyboard->events.key, &s->keyboard_key);
		s->keyboard_modifiers.notify = handle_modifiers;
		wl_signal_add(&s->keyboard->keyboard->events.modifiers, &s->keyboard_modifiers);
		wlr_seat_set_keyboard(s->seat, s->keyboard);
	}
}

void input_focus_view(struct server *s, struct view *view) {
	struct wlr_keyboard *kb = wlr_seat_get_keyboard(s->seat);
	if (kb != NULL) {
		wlr_seat_keyboard_notify_enter(s->seat, view->xdg->surface, kb->keycodes, kb->num_keycodes,
			&kb->modifiers);
	} else {
		wlr_seat_keyboard_notify_enter(s->seat, view->xdg->surface, NULL, 0, NULL);
	}
	text_input_focus(s, view->xdg->surface);
}

/* The surface under layout point x,y and the point in its coordinates, or NULL. */
static struct wlr_surface *surface_at(struct server *s, double x, double y, double *sx, double *sy) {
	struct wlr_scene_node *node = wlr_scene_node_at(&s->scene->node, x, y, sx, sy);
	if (node == NULL || node->type != WLR_SCENE_NODE_SURFACE) {
		return NULL;
	}
	return wlr_scene_surface_from_node(node)->surface;
}

static bool valid_id(int id, char *why, size_t n) {
	if (id < 0 || id >= MAX_TOUCH_POINTS) {
		snprintf(why, n, "touch id %d out of range 0..%d", id, MAX_TOUCH_POINTS - 1);
		return false;
	}
	return true;
}

bool input_touch_down(struct server *s, int id, double x, double y, char *why, size_t n) {
	if (!valid_id(id, why, n)) {
		return false;
	}
	if (!(s->seat->capabilities & WL_SEAT_CAPABILITY_TOUCH)) {
		snprintf(why, n, "seat has no touch capability");
		return false;
	}
	if (wlr_seat_touch_get_point(s->seat, id) != NULL) {
		snprintf(why, n, "touch id %d already down", id);
		return false;
	}
	double sx = 0, sy = 0;
	struct wlr_surface *surface = surface_at(s, x, y, &sx, &sy);
	if (surface == NULL) {
		snprintf(why, n, "no surface at %g,%g", x, y);
		return false;
	}
	/* Returns 0 when the client has no wl_touch (not bound yet, or released). */
	if (wlr_seat_touch_notify_down(s->seat, surface, touch_time(surface), id, sx, sy) == 0) {
		snprintf(why, n, "client has no wl_touch");
		return false;
	}
	s->touches[id] = (struct touch_origin){.down = true, .ox = x - sx, .oy = y - sy};
	return true;
}

bool input_touch_motion(struct server *s, int id, double x, double y, char *why, size_t n) {
	if (!valid_id(id, why, n)) {
		return false;
	}
	struct wlr_touch_point *point = wlr_seat_touch_get_point(s->seat, id);
	if (!s->touches[id].down || point == NULL) {
		s->touches[id].down = false;
		snprintf(why, n, "touch id %d not down", id);
		return false;
	}
	/* Touch motion stays relative to the surface the point went down on, as on real hardware. */
	wlr_seat_touch_notify_motion(s->seat, touch_time(point->surface), id, x - s->touches[id].ox, y - s->touches[id].oy);
	return true;
}

bool input_touch_up(struct server *s, int id, char *why, size_t n) {
	if (!valid_id(id, why, n)) {
		return false;
	}
	struct wlr_touch_point *point = wlr_seat_touch_get_point(s->seat, id);
	if (!s->touches[id].down || point == NULL) {
		s->touches[id].down = false;
		snprintf(why, n, "touch id %d not down", id);
		return false;
	}
	wlr_seat_touch_notify_up(s->seat, touch_time(point->surface), id);
	s->touches[id].down = false;
	return true;
}

void input_touch_frame(struct server *s) {
	/* notify_down/motion/up only mark a frame as needed (gotcha 7). */
	wlr_seat_touch_notify_frame(s->seat);
}

bool input_touch_cancel(struct server *s, char *why, size_t n) {
	bool cancelled = false;
	for (int id = 0; id < MAX_TOUCH_POINTS; id++) {
		if (!s->touches[id].down) {
			continue;
		}
		s->touches[id].down = false;
		struct wlr_touch_point *point = wlr_seat_touch_get_point(s->seat, id);
		/* One cancel per surface drops all of that client's points (gotcha 8). */
		if (point != NULL && point->surface != NULL) {
			wlr_seat_touch_notify_cancel(s->seat, point->surface);
			cancelled = true;
		}
	}
	if (!cancelled) {
		snprintf(why, n, "no touch point down");
	}
	return cancelled;
}

int input_touch_count(struct server *s) {
	return wlr_seat_touch_num_points(s->seat);
}

bool input_pointer_move(struct server *s, double x, double y, char *why, size_t n) {
	double sx = 0, sy = 0;
	struct wlr_surface *surface = surface_at(s, x, y, &sx, &sy);
	if (surface == NULL) {
		/* notify_clear_focus sends its own frame (gotcha 9). */
		wlr_seat_pointer_notify_clear_focus(s->seat);
		return true;
	}
	if (s->seat->pointer_state.focused_surface != surface) {
		wlr_seat_pointer_notify_enter(s->seat, surface, sx, sy); /* sends its own frame */
		return true;
	}
	wlr_seat_pointer_notify_motion(s->seat, event_time(), sx, sy);
	if (s->pointer_autoframe) {
		wlr_seat_pointer_notify_frame(s->seat);
	}
	return true;
}

bool input_pointer_has_focus(struct server *s) {
	return s->seat->pointer_state.focused_surface != NULL;
}

bool input_pointer_button(struct server *s, uint32_t code, bool pressed, char *why, size_t n) {
	if (!input_pointer_has_focus(s)) {
		snprintf(why, n, "no pointer focus (pointer-move onto a surface first)");
		return false;
	}
	wlr_seat_pointer_notify_button(s->seat, event_time(), code,
		pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
	if (s->pointer_autoframe) {
		wlr_seat_pointer_notify_frame(s->seat);
	}
	return true;
}

bool input_pointer_axis(struct server *s, bool vertical, double value, int discrete, bool has_discrete,
		char *why, size_t n) {
	if (!input_pointer_has_focus(s)) {
		snprintf(why, n, "no pointer focus (pointer-move onto a surface first)");
		return false;
	}
	wlr_seat_pointer_notify_axis(s->seat, event_time(),
		vertical ? WLR_AXIS_ORIENTATION_VERTICAL : WLR_AXIS_ORIENTATION_HORIZONTAL, value,
		has_discrete ? discrete : 0, has_discrete ? WLR_AXIS_SOURCE_WHEEL : WLR_AXIS_SOURCE_FINGER);
	if (s->pointer_autoframe) {
		wlr_seat_pointer_notify_frame(s->seat);
	}
	return true;
}

void input_pointer_frame(struct server *s) {
	wlr_seat_pointer_notify_frame(s->seat);
}

bool input_key(struct server *s, uint32_t code, bool pressed, char *why, size_t n) {
	if (s->keyboard == NULL || s->keyboard->keyboard == NULL) {
		snprintf(why, n, "no keyboard device");
		return false;
	}
	struct wlr_event_keyboard_key event = {
		.time_msec = event_time(),
		.keycode = code,
		.update_state = true, /* so xkb state, and with it modifiers, follow the keys */
		.state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
	};
	wlr_keyboard_notify_key(s->keyboard->keyboard, &event);
	return true;
}

bool input_set_caps(struct server *s, const char *list, char *why, size_t n) {
	uint32_t caps = 0;
	if (strcmp(list, "none") != 0) {
		char copy[128];
		snprintf(copy, sizeof copy, "%s", list);
		char *save = NULL;
		for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			if (strcmp(name, "pointer") == 0) {
				caps |= WL_SEAT_CAPABILITY_POINTER;
			} else if (strcmp(name, "keyboard") == 0) {
				caps |= WL_SEAT_CAPABILITY_KEYBOARD;
			} else if (strcmp(name, "touch") == 0) {
				caps |= WL_SEAT_CAPABILITY_TOUCH;
			} else {
				snprintf(why, n, "unknown capability '%s' (pointer, keyboard, touch or none)", name);
				return false;
			}
		}
	}
	if (!(caps & WL_SEAT_CAPABILITY_TOUCH)) {
		/* The client's wl_touch objects go inert; forget our side of its points too. */
		for (int id = 0; id < MAX_TOUCH_POINTS; id++) {
			s->touches[id].down = false;
		}
	}
	wlr_seat_set_capabilities(s->seat, caps);
	return true;
}

const char *input_caps_string(struct server *s, char *buf, size_t n) {
	uint32_t caps = s->seat->capabilities;
	snprintf(buf, n, "%s%s%s%s",
		(caps & WL_SEAT_CAPABILITY_POINTER) ? "pointer," : "",
		(caps & WL_SEAT_CAPABILITY_KEYBOARD) ? "keyboard," : "",
		(caps & WL_SEAT_CAPABILITY_TOUCH) ? "touch," : "",
		caps == 0 ? "none" : "");
	size_t len = strlen(buf);
	if (len > 0 && buf[len - 1] == ',') {
		buf[len - 1] = '\0';
	}
	return buf;
}

static bool gesture_ready(struct server *s, char *why, size_t n) {
	if (!input_pointer_has_focus(s)) {
		/* wlroots sends gestures to the focused pointer client only. */
		snprintf(why, n, "no pointer focus (pointer-move onto a surface first)");
		return false;
	}
	return true;
}

bool input_pinch_begin(struct server *s, uint32_t fingers, char *why, size_t n) {
	if (!gesture_ready(s, why, n)) {
		return false;
	}
	wlr_pointer_gestures_v1_send_pinch_begin(s->gestures, s->seat, event_time(), fingers);
	return true;
}

bool input_pinch_update(struct server *s, double dx, double dy, double scale, double rotation,
		char *why, size_t n) {
	if (!gesture_ready(s, why, n)) {
		return false;
	}
	wlr_pointer_gestures_v1_send_pinch_update(s->gestures, s->seat, event_time(), dx, dy, scale, rotation);
	return true;
}

bool input_pinch_end(struct server *s, bool cancelled, char *why, size_t n) {
	if (!gesture_ready(s, why, n)) {
		return false;
	}
	wlr_pointer_gestures_v1_send_pinch_end(s->gestures, s->seat, event_time(), cancelled);
	return true;
}
