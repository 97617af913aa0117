import type { Messages } from '../i18n.js';
import french from './fr-FR.js';

// Open WebUI's Canadian French is its French but for a word or two of its own interface.
const messages: Partial<Messages> = { ...french, exportSources: 'Exportation' };

export default messages;
