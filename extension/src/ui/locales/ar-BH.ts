import type { Messages } from '../i18n.js';
import arabic from './ar.js';

// Open WebUI's Arabic for Bahrain is its Arabic but for a word or two of its own interface.
const messages: Partial<Messages> = { ...arabic, close: 'أغلق' };

export default messages;
