/*
 * The compositor as an input method: zwp_text_input_v3 through wlroots' wlr_text_input_v3.
 * Text inputs of the client that has keyboard focus get `enter` for its surface; the commands
 * text-input-preedit / -commit / -delete send what an on-screen keyboard would (each followed
 * by `done`), and "event text-input enabled|disabled" says when the client turns it on or off.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_text_input_v3.h>

#include "compositor.h"

/** One client text input and our listeners on it. */
struct text_input {
	struct wl_list link; /* server.text_inputs */
	struct server *server;
	struct wlr_text_input_v3 *input;
	struct wl_listener enable, commit, disable, destroy;
};

static void handle_enable(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, enable);
	t->server->text_input_enables++;
	emit("event text-input enabled");
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, commit);
	t->server->text_input_commits++;
}

static void handle_disable(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, disable);
	t->server->text_input_disables++;
	emit("event text-input disabled");
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct text_input *t = wl_container_of(listener, t, destroy);
	wl_list_remove(&t->link);
	wl_list_remove(&t->enable.link);
	wl_list_remove(&t->commit.link);
	wl_list_remove(&t->disable.link);
	wl_list_remove(&t->destroy.link);
	free(t);
}

/* Enter for `surface` to the text inputs of its client, leave to the others. */
static void focus_text_input(struct text_input *t, struct wlr_surface *surface) {
	struct wlr_text_input_v3 *in = t->input;
	if (in->focused_surface == surface) {
		return;
	}
	if (in->focused_surface != NULL) {
		wlr_text_input_v3_send_leave(in);
	}
	if (surface != NULL && wl_resource_get_client(in->resource) == wl_resource_get_client(surface->resource)) {
		wlr_text_input_v3_send_enter(in, surface);
	}
}

void text_input_focus(struct server *s, struct wlr_surface *surface) {
	struct text_input *t;
	wl_list_for_each(t, &s->text_inputs, link) {
		focus_text_input(t, surface);
	}
}

static void handle_new_text_input(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_text_input);
	struct wlr_text_input_v3 *in = data;
	struct text_input *t = calloc(1, sizeof *t);
	if (t == NULL) {
		return;
	}
	t->server = s;
	t->input = in;
	t->enable.notify = handle_enable;
	wl_signal_add(&in->events.enable, &t->enable);
	t->commit.notify = handle_commit;
	wl_signal_add(&in->events.commit, &t->commit);
	t->disable.notify = handle_disable;
	wl_signal_add(&in->events.disable, &t->disable);
	t->destroy.notify = handle_destroy;
	wl_signal_add(&in->events.destroy, &t->destroy);
	wl_list_insert(&s->text_inputs, &t->link);
	focus_text_input(t, s->seat->keyboard_state.focused_surface);
}

void text_input_setup(struct server *s) {
	wl_list_init(&s->text_inputs);
	s->text_input_manager = wlr_text_input_manager_v3_create(s->display);
	s->new_text_input.notify = handle_new_text_input;
	wl_signal_add(&s->text_input_manager->events.text_input, &s->new_text_input);
}

/* The enabled text input with focus, or NULL. */
static struct wlr_text_input_v3 *active(struct server *s) {
	struct text_input *t;
	wl_list_for_each(t, &s->text_inputs, link) {
		if (t->input->focused_surface != NULL && t->input->current_enabled) {
			return t->input;
		}
	}
	return NULL;
}

bool text_input_send(struct server *s, const char *what, const char *text, long a, long b, char *why, size_t n) {
	struct wlr_text_input_v3 *in = active(s);
	if (in == NULL) {
		snprintf(why, n, "no enabled text input has focus");
		return false;
	}
	if (strcmp(what, "preedit") == 0) {
		wlr_text_input_v3_send_preedit_string(in, text, (int32_t)a, (int32_t)b);
	} else if (strcmp(what, "commit") == 0) {
		wlr_text_input_v3_send_commit_string(in, text);
	} else {
		wlr_text_input_v3_send_delete_surrounding_text(in, (uint32_t)a, (uint32_t)b);
	}
	wlr_text_input_v3_send_done(in);
	return true;
}

void text_input_status(struct server *s, char *out, size_t n) {
	struct wlr_text_input_v3 *in = active(s);
	struct text_input *t;
	bool focused = false;
	wl_list_for_each(t, &s->text_inputs, link) {
		focused = focused || t->input->focused_surface != NULL;
	}
	if (in == NULL) {
		snprintf(out, n, "enabled=no focused=%s enables=%llu disables=%llu", focused ? "yes" : "no",
			(unsigned long long)s->text_input_enables, (unsigned long long)s->text_input_disables);
		return;
	}
	const char *text = in->current.surrounding.text ? in->current.surrounding.text : "";
	struct wlr_box r = in->current.cursor_rectangle;
	/* The text last: it may hold spaces. */
	snprintf(out, n, "enabled=yes focused=yes enables=%llu disables=%llu commits=%llu cursor=%u rect=%d,%d,%d,%d text=%s",
		(unsigned long long)s->text_input_enables, (unsigned long long)s->text_input_disables,
		(unsigned long long)s->text_input_commits, in->current.surrounding.cursor, r.x, r.y, r.width, r.height, text);
}
