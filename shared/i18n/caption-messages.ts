import type { Catalogue } from "./locale";

// The strings of the player's captions and descriptions controls and of the landing page's
// transcript, in every supported locale (ICU MessageFormat, read with translator()).

export type CaptionMessageId =
  | "captions"
  | "captionsTitle"
  | "readAloud"
  | "descriptionsRegion"
  | "transcript"
  | "captionCue"
  | "descriptionCue"
  | "playFrom";

export const captionMessages: Catalogue<CaptionMessageId> = {
  en: {
    captions: "Captions",
    captionsTitle: "Captions (c)",
    readAloud: "Read descriptions aloud",
    descriptionsRegion: "Descriptions",
    transcript: "Transcript",
    captionCue: "Caption",
    descriptionCue: "Description",
    playFrom: "Play from {time}",
  },
  de: {
    captions: "Untertitel",
    captionsTitle: "Untertitel (c)",
    readAloud: "Beschreibungen vorlesen",
    descriptionsRegion: "Beschreibungen",
    transcript: "Transkript",
    captionCue: "Untertitel",
    descriptionCue: "Beschreibung",
    playFrom: "Ab {time} abspielen",
  },
  fr: {
    captions: "Sous-titres",
    captionsTitle: "Sous-titres (c)",
    readAloud: "Lire les descriptions à voix haute",
    descriptionsRegion: "Descriptions",
    transcript: "Transcription",
    captionCue: "Sous-titre",
    descriptionCue: "Description",
    playFrom: "Lire à partir de {time}",
  },
  es: {
    captions: "Subtítulos",
    captionsTitle: "Subtítulos (c)",
    readAloud: "Leer las descripciones en voz alta",
    descriptionsRegion: "Descripciones",
    transcript: "Transcripción",
    captionCue: "Subtítulo",
    descriptionCue: "Descripción",
    playFrom: "Reproducir desde {time}",
  },
  "pt-BR": {
    captions: "Legendas",
    captionsTitle: "Legendas (c)",
    readAloud: "Ler as descrições em voz alta",
    descriptionsRegion: "Descrições",
    transcript: "Transcrição",
    captionCue: "Legenda",
    descriptionCue: "Descrição",
    playFrom: "Reproduzir a partir de {time}",
  },
  it: {
    captions: "Sottotitoli",
    captionsTitle: "Sottotitoli (c)",
    readAloud: "Leggi le descrizioni ad alta voce",
    descriptionsRegion: "Descrizioni",
    transcript: "Trascrizione",
    captionCue: "Sottotitolo",
    descriptionCue: "Descrizione",
    playFrom: "Riproduci da {time}",
  },
  nl: {
    captions: "Ondertiteling",
    captionsTitle: "Ondertiteling (c)",
    readAloud: "Beschrijvingen voorlezen",
    descriptionsRegion: "Beschrijvingen",
    transcript: "Transcript",
    captionCue: "Ondertitel",
    descriptionCue: "Beschrijving",
    playFrom: "Afspelen vanaf {time}",
  },
  ja: {
    captions: "字幕",
    captionsTitle: "字幕 (c)",
    readAloud: "説明を読み上げる",
    descriptionsRegion: "説明",
    transcript: "トランスクリプト",
    captionCue: "字幕",
    descriptionCue: "説明",
    playFrom: "{time} から再生",
  },
  ar: {
    captions: "الترجمة المرئية",
    captionsTitle: "الترجمة المرئية (c)",
    readAloud: "قراءة الأوصاف بصوت عالٍ",
    descriptionsRegion: "الأوصاف",
    transcript: "النص المكتوب",
    captionCue: "ترجمة",
    descriptionCue: "وصف",
    playFrom: "التشغيل من {time}",
  },
};
