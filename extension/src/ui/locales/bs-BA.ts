import type { Messages } from '../i18n.js';
import croatian from './hr-HR.js';

// Bosnian shares most of these strings with Croatian; its own words (lista, server, sačuvano…) below.
const messages: Partial<Messages> = {
  ...croatian,
  reranker: 'Ocjena preraspoređivanja {n}',
  bm25: 'Ocjena pretrage {n}',
  settingShown: 'Izvori prikazani prije „Prikaži sve“',
  settingRetrieved: 'Prikaži pronađene, ali necitirane izvore',
  settingStrip: 'Zadrži vlastitu listu izvora Open WebUI-ja',
  retrieved: 'Još {n} pronađeno, necitirano',
  unnamed: 'Izvor {n}: server nije poslao takav izvor',
  exportChat: 'Cijeli chat',
  retrievedOnly: 'Pronađeno, necitirano',
  findIntro: 'Liste pronađene u odgovoru. Odaberite onu koja sadrži izvore:',
  findNone: 'U ovom odgovoru nije pronađena lista izvora.',
  findNoModel: 'Model ovog odgovora ovdje nije poznat: ponovo otvorite chat, pa pokušajte ponovo.',
  findUnder: 'Pod naslovom „{heading}“',
  findAfterLine: 'Nakon linije razdvajanja',
  findUse: 'Koristi ovu listu',
  findSaved:
    'Sačuvano za {model} u ovom pregledniku. Da biste ove izvore prikazali svim korisnicima, dajte ovo svom administratoru:',
  findBadSaved: 'Izvori deklarisani u ovom pregledniku se ne koriste jer nisu ispravni: {errors}',
};

export default messages;
