/*
 * xdg-shell toplevels and popups, server-side decorations, commit counting and held buffers.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor.h"

/** A decoration object; the compositor always asks for server-side decorations (and draws none). */
struct decoration {
	struct wlr_xdg_toplevel_decoration_v1 *wlr;
	struct wl_listener request_mode, destroy;
};

static void hold_buffer(struct server *s, struct wlr_buffer *buffer) {
	for (size_t i = 0; i < s->held_count; i++) {
		if (s->held[i] == buffer) {
			return;
		}
	}
	if (s->held_count == s->held_capacity) {
		size_t capacity = s->held_capacity ? s->held_capacity * 2 : 8;
		struct wlr_buffer **grown = realloc(s->held, capacity * sizeof *grown);
		if (grown == NULL) {
			return;
		}
		s->held = grown;
		s->held_capacity = capacity;
	}
	s->held[s->held_count++] = wlr_buffer_lock(buffer);
}

void shell_hold_current_buffers(struct server *s) {
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		if (view->xdg->surface->buffer != NULL) {
			hold_buffer(s, &view->xdg->surface->buffer->base);
		}
	}
}

void shell_release_held_buffers(struct server *s) {
	for (size_t i = 0; i < s->held_count; i++) {
		wlr_buffer_unlock(s->held[i]);
	}
	s->held_count = 0;
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, commit);
	struct server *s = view->server;
	s->commits++;
	s->last_commit_ms = now_ms();
	view->commit_ns = now_ns();
	/* With pixman the client buffer's texture keeps the wl_buffer locked; holding the client
	 * buffer past its replacement therefore withholds wl_buffer.release. */
	struct wlr_surface *surface = view->xdg->surface;
	if (view->attached && surface->buffer != NULL) {
		view->attached = false;
		s->buffer_commits++;
		if (!pixman_region32_not_empty(&surface->buffer_damage)) {
			s->empty_damage_buffers++;
		}
		s->buffers_this_refresh++;
		if (s->buffers_this_refresh > s->most_buffers_per_refresh) {
			s->most_buffers_per_refresh = s->buffers_this_refresh;
		}
		s->last_buffer_width = surface->current.buffer_width;
		s->last_buffer_height = surface->current.buffer_height;
		s->last_surface_width = surface->current.width;
		s->last_surface_height = surface->current.height;
	}
	if (s->hold_buffers && surface->buffer != NULL) {
		hold_buffer(s, &surface->buffer->base);
	}
	commands_poll_waits(s);
}

static void configure_view(struct server *s, struct view *view) {
	if (s->output == NULL) {
		return;
	}
	int w = 0, h = 0;
	wlr_output_effective_resolution(s->output, &w, &h);
	wlr_xdg_toplevel_set_maximized(view->xdg, true);
	wlr_xdg_toplevel_set_size(view->xdg, (uint32_t)w, (uint32_t)h);
}

void shell_configure_all(struct server *s) {
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		configure_view(s, view);
	}
}

void shell_send_enter_all(struct server *s) {
	if (s->output == NULL) {
		return;
	}
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		if (view->mapped) {
			/* wlroots skips the event when the surface already entered this output. */
			wlr_surface_send_enter(view->xdg->surface, s->output);
		}
	}
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, map);
	struct server *s = view->server;
	view->mapped = true;
	wlr_scene_node_raise_to_top(view->node);
	wlr_xdg_toplevel_set_activated(view->xdg, true);
	if (s->output != NULL) {
		wlr_surface_send_enter(view->xdg->surface, s->output);
	}
	input_focus_view(s, view);
	struct wlr_xdg_toplevel *toplevel = view->xdg->toplevel;
	emit("event map title=%s app_id=%s %dx%d",
		toplevel->title ? toplevel->title : "", toplevel->app_id ? toplevel->app_id : "",
		view->xdg->surface->current.width, view->xdg->surface->current.height);
	commands_poll_waits(s);
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, unmap);
	view->mapped = false;
	if (!view->server->quitting) {
		emit("event unmap");
	}
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct view *view = wl_container_of(listener, view, destroy);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->commit.link);
	wl_list_remove(&view->link);
	if (!view->server->quitting) {
		emit("event destroy");
	}
	free(view);
}

static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *s = wl_container_of(listener, s, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	if (xdg->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		/* Popups hang off their parent's scene node so they move and stack with it. */
		struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
		if (parent != NULL && parent->data != NULL) {
			xdg->data = wlr_scene_xdg_surface_create(parent->data, xdg);
		}
		return;
	}
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct view *view = calloc(1, sizeof *view);
	if (view == NULL) {
		return;
	}
	view->server = s;
	view->xdg = xdg;
	/* The node origin is the window-geometry corner; toplevels sit at 0,0 so that
	 * output coordinates equal window coordinates (plus any CSD shadow, gotcha 13). */
	view->node = wlr_scene_xdg_surface_create(&s->scene->node, xdg);
	xdg->data = view->node;
	view->map.notify = handle_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = handle_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->destroy.notify = handle_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	view->commit.notify = handle_commit;
	wl_signal_add(&xdg->surface->events.commit, &view->commit);
	wl_list_insert(&s->views, &view->link);
	if (s->kiosk) {
		configure_view(s, view);
	}
}

static void handle_decoration_request_mode(struct wl_listener *listener, void *data) {
	struct decoration *d = wl_container_of(listener, d, request_mode);
	wlr_xdg_toplevel_decoration_v1_set_mode(d->wlr, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

static void handle_decoration_destroy(struct wl_listener *listener, void *data) {
	struct decoration *d = wl_container_of(listener, d, destroy);
	wl_list_remove(&d->request_mode.link);
	wl_list_remove(&d->destroy.link);
	free(d);
}

static void handle_new_decoration(struct wl_listener *listener, void *data) {
	struct wlr_xdg_toplevel_decoration_v1 *wlr = data;
	struct decoration *d = calloc(1, sizeof *d);
	if (d == NULL) {
		return;
	}
	d->wlr = wlr;
	d->request_mode.notify = handle_decoration_request_mode;
	wl_signal_add(&wlr->events.request_mode, &d->request_mode);
	d->destroy.notify = handle_decoration_destroy;
	wl_signal_add(&wlr->events.destroy, &d->destroy);
	wlr_xdg_toplevel_decoration_v1_set_mode(wlr, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* wlroots 0.15 keeps WLR_SURFACE_STATE_BUFFER in `current.committed` after the commit that
 * set it, so a commit that attached a buffer is told from a bare one by the request itself:
 * the protocol logger sees wl_surface.attach before the commit that applies it. */
static void log_request(void *data, enum wl_protocol_logger_type type, const struct wl_protocol_logger_message *m) {
	struct server *s = data;
	if (type != WL_PROTOCOL_LOGGER_REQUEST || strcmp(m->message->name, "attach") != 0
			|| strcmp(wl_resource_get_class(m->resource), "wl_surface") != 0) {
		return;
	}
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		if (view->xdg->surface->resource == m->resource) {
			view->attached = m->arguments_count > 0 && m->arguments[0].o != NULL;
		}
	}
}

void shell_setup(struct server *s) {
	wl_display_add_protocol_logger(s->display, log_request, s);
	s->xdg_shell = wlr_xdg_shell_create(s->display);
	/* wait-sync's ping must not time out (which also clears the serial) before the wait does. */
	s->xdg_shell->ping_timeout = 3600000 + 60000;
	s->new_xdg_surface.notify = handle_new_xdg_surface;
	wl_signal_add(&s->xdg_shell->events.new_surface, &s->new_xdg_surface);
	struct wlr_xdg_decoration_manager_v1 *decorations = wlr_xdg_decoration_manager_v1_create(s->display);
	s->new_decoration.notify = handle_new_decoration;
	wl_signal_add(&decorations->events.new_toplevel_decoration, &s->new_decoration);
}

struct view *shell_top_view(struct server *s) {
	if (wl_list_empty(&s->views)) {
		return NULL;
	}
	struct view *view = wl_container_of(s->views.next, view, link);
	return view;
}

bool shell_any_mapped(struct server *s) {
	return shell_view_count(s, true) > 0;
}

size_t shell_view_count(struct server *s, bool mapped_only) {
	size_t count = 0;
	struct view *view;
	wl_list_for_each(view, &s->views, link) {
		if (!mapped_only || view->mapped) {
			count++;
		}
	}
	return count;
}

/* Configures sent to the newest toplevel that its client has not acked yet (wlroots drops a
 * configure from the list when it, or a later one, is acked). */
size_t shell_unacked_configures(struct server *s) {
	struct view *view = shell_top_view(s);
	return view != NULL ? (size_t)wl_list_length(&view->xdg->configure_list) : 0;
}
