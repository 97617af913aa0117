import type { Messages } from '../i18n.js';
import brazilian from './pt-BR.js';

// European Portuguese shares some of these strings with Brazilian; its own words and spelling below.
const messages: Partial<Messages> = {
  ...brazilian,
  showAll: 'Mostrar as {n} fontes',
  next: 'Fonte seguinte',
  reranker: 'Pontuação do reordenador {n}',
  bm25: 'Pontuação de pesquisa {n}',
  settings: 'Definições das citações',
  settingShown: 'Fontes apresentadas antes de «Mostrar todas»',
  settingRetrieved: 'Mostrar fontes obtidas mas não citadas',
  retrieved: 'Mais {n} obtidas, não citadas',
  exportChat: 'Toda a conversa',
  retrievedOnly: 'Obtidas, não citadas',
  unreadable: 'Foram enviadas fontes com esta resposta, mas não foi possível lê-las.',
  interrupted: 'A ligação caiu enquanto esta resposta chegava: as suas fontes, se as tinha, não chegaram.',
  findSources: 'Procurar fontes nesta resposta',
  findNone: 'Não foi encontrada nenhuma lista de fontes nesta resposta.',
  findNoModel: 'O modelo desta resposta não é conhecido aqui: abra novamente a conversa e tente de novo.',
  findUnder: 'Sob o título «{heading}»',
  findUse: 'Utilizar esta lista',
  findSaved:
    'Guardado para {model} neste navegador. Para mostrar estas fontes a todos os utilizadores, entregue isto ao seu administrador:',
  findBadSaved: 'As fontes declaradas neste navegador não são utilizadas, pois não são válidas: {errors}',
};

export default messages;
