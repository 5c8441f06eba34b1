const list = (codes: string): readonly string[] => codes.split(' ');

const EU = list('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE');
const EUROPE = list(
  `${EU.join(' ')} AD AL BA BY CH FO GB GG GI IM IS JE LI MC MD ME MK NO RS RU SM UA VA AX SJ`,
);
const MIDDLE_EAST = list('AE BH CY EG IL IQ IR JO KW LB OM PS QA SA SY TR YE');
const AFRICA = list(
  'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW ' +
    'MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
);
const NORTH_AMERICA = list('US CA MX');
const LATAM = list('AR BO BR CL CO CR CU DO EC GT HN HT MX NI PA PE PR PY SV UY VE');
const APAC = list(
  'AU BD BN BT CN FJ HK ID IN JP KH KI KR LA LK MM MN MO MV MY NP NZ PG PH PK SB SG TH TL TO TW VN VU WS',
);

/**
 * Named regions accepted wherever a `region` filter takes country codes. Each is a plain list of
 * ISO 3166-1 alpha-2 codes; a country may sit in several (Mexico is North and Latin America).
 */
export const REGIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['eu', EU],
  ['europe', EUROPE],
  ['emea', [...new Set([...EUROPE, ...MIDDLE_EAST, ...AFRICA])]],
  ['dach', list('DE AT CH')],
  ['benelux', list('BE NL LU')],
  ['nordics', list('DK FI IS NO SE FO AX GL')],
  ['uk_ireland', list('GB IE')],
  ['middle_east', MIDDLE_EAST],
  ['africa', AFRICA],
  ['north_america', NORTH_AMERICA],
  ['latam', LATAM],
  ['americas', [...new Set([...NORTH_AMERICA, ...LATAM])]],
  ['apac', APAC],
  ['oceania', list('AU NZ FJ PG SB VU WS TO KI')],
]);
