/**
 * Where Open WebUI serves the files the installer puts beside the bundle. The installer writes
 * them into the frontend's `static/` (owui_citations/installer.py); Open WebUI copies that
 * directory into its STATIC_DIR at every start and serves it at `/static/` (config.py, main.py).
 */

/** The admin's declared backends (`owui-citations install --backends FILE`): installer.BACKENDS. */
export const ADMIN_DECLARATIONS_PATH = '/static/owc-backends.json';
