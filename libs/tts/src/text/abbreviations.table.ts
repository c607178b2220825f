// The abbreviations said in full, and how each behaves around its period (see
// abbreviation.rule.ts): a title stands before a name and never ends a sentence; an inline one
// may stand anywhere; a trailing one ends many sentences ("… etc."), so its period stays when a
// sentence starts after it; a numbering one only counts before a number ("No. 5", "pp. 12");
// a weekday only before a date or a comma ("Tues., Jan. 5").
import type { EnglishDialect } from './english.dialect';

export type AbbreviationKind = 'title' | 'inline' | 'trailing' | 'numbering' | 'weekday';

export interface Abbreviation {
  readonly kind: AbbreviationKind;
  /** The words said; for the dialect when the spelling changes the sound. */
  readonly say: string | ((dialect: EnglishDialect) => string);
}

const title = (say: string): Abbreviation => ({ kind: 'title', say });
const inline = (say: string): Abbreviation => ({ kind: 'inline', say });
const trailing = (say: string): Abbreviation => ({ kind: 'trailing', say });
const numbering = (say: string): Abbreviation => ({ kind: 'numbering', say });
const weekday = (say: string): Abbreviation => ({ kind: 'weekday', say });

/** Written forms, exactly as matched (case matters: "No." is a number, "no." is not). */
export const ABBREVIATIONS: Readonly<Record<string, Abbreviation>> = {
  'Mr.': title('Mister'),
  'Mrs.': title('Misses'),
  'Ms.': title('Miz'),
  'Mx.': title('Mix'),
  'Messrs.': title('Messieurs'),
  'Prof.': title('Professor'),
  'Rev.': title('Reverend'),
  'Hon.': { kind: 'title', say: (d) => (d.spelling === 'us' ? 'Honorable' : 'Honourable') },
  'Fr.': title('Father'),
  'Mt.': title('Mount'),
  'Ft.': title('Fort'),
  'Gen.': title('General'),
  'Lt.': title('Lieutenant'),
  'Col.': title('Colonel'),
  'Maj.': title('Major'),
  'Capt.': title('Captain'),
  'Sgt.': title('Sergeant'),
  'Cpl.': title('Corporal'),
  'Pvt.': title('Private'),
  'Adm.': title('Admiral'),
  'Cmdr.': title('Commander'),
  'Gov.': title('Governor'),
  'Sen.': title('Senator'),
  'Rep.': title('Representative'),
  'Pres.': title('President'),
  'Supt.': title('Superintendent'),
  'Det.': title('Detective'),
  'Insp.': title('Inspector'),

  'approx.': inline('approximately'),
  'Approx.': inline('Approximately'),
  'vs.': inline('versus'),
  vs: inline('versus'),
  'e.g.': inline('for example'),
  'E.g.': inline('For example'),
  'i.e.': inline('that is'),
  'I.e.': inline('That is'),
  'cf.': inline('compare'),
  'viz.': inline('namely'),
  'ca.': inline('circa'),
  'a.k.a.': inline('also known as'),
  'incl.': inline('including'),
  'esp.': inline('especially'),

  'etc.': trailing('et cetera'),
  'et al.': trailing('and others'),
  'Jr.': trailing('Junior'),
  'Sr.': trailing('Senior'),
  'Inc.': trailing('Incorporated'),
  'Ltd.': trailing('Limited'),
  'Co.': trailing('Company'),
  'Corp.': trailing('Corporation'),
  'Bros.': trailing('Brothers'),
  'Ave.': trailing('Avenue'),
  'Rd.': trailing('Road'),
  'Blvd.': trailing('Boulevard'),
  'Ln.': trailing('Lane'),
  'Hwy.': trailing('Highway'),
  'Sq.': trailing('Square'),
  'Dept.': trailing('Department'),
  'Univ.': trailing('University'),

  'No.': numbering('number'),
  'Nos.': numbering('numbers'),
  'p.': numbering('page'),
  'pp.': numbering('pages'),
  'Fig.': numbering('Figure'),
  'fig.': numbering('figure'),
  'Vol.': numbering('Volume'),
  'vol.': numbering('volume'),
  'Ch.': numbering('Chapter'),
  'ch.': numbering('chapter'),
  'Sec.': numbering('Section'),
  'Art.': numbering('Article'),
  'Apt.': numbering('Apartment'),
  'Ste.': numbering('Suite'),
  'Rm.': numbering('Room'),
  'Eq.': numbering('Equation'),
  'Op.': numbering('Opus'),
  'Jan.': numbering('January'),
  'Feb.': numbering('February'),
  'Mar.': numbering('March'),
  'Apr.': numbering('April'),
  'Jun.': numbering('June'),
  'Jul.': numbering('July'),
  'Aug.': numbering('August'),
  'Sep.': numbering('September'),
  'Sept.': numbering('September'),
  'Oct.': numbering('October'),
  'Nov.': numbering('November'),
  'Dec.': numbering('December'),

  'Mon.': weekday('Monday'),
  'Tue.': weekday('Tuesday'),
  'Tues.': weekday('Tuesday'),
  'Wed.': weekday('Wednesday'),
  'Thu.': weekday('Thursday'),
  'Thur.': weekday('Thursday'),
  'Thurs.': weekday('Thursday'),
  'Fri.': weekday('Friday'),
  'Sat.': weekday('Saturday'),
  'Sun.': weekday('Sunday'),
};

/**
 * "St." and "Dr." are a title before a name ("St. Patrick", "Dr. Smith") and a place after one
 * ("Baker St.", "Elm Dr."); abbreviation.rule.ts picks by the words around them.
 */
export const TITLE_OR_PLACE: Readonly<Record<string, { title: string; place: string }>> = {
  'St.': { title: 'Saint', place: 'Street' },
  'Dr.': { title: 'Doctor', place: 'Drive' },
};
